import "server-only";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, OPERATION_KINDS, recoveryMarks, salesSettings } from "@/lib/db/schema";
import type { RecoveryMarkState } from "@/lib/db/tables/sales";
import { saoPauloDate } from "@/lib/i18n/format";
import { ledgerCursorParts } from "@/lib/ledger/filters";
import { spellingsOf, transactionMachine } from "@/lib/status/machine";
import { madeFor, renewalJoin } from "@/lib/subscriptions/dunning";
import { DEFAULT_RECOVERY_TEMPLATE, DEFAULT_RENEWAL_TEMPLATE } from "./message";
import { checkPeriod, daysOf, previousPeriod, type SalesPeriod } from "./period";
import {
  recoveryContactSchema,
  recoveryMarkSchema,
  salesSettingsSchema,
  type RecoveryContactInput,
  type RecoveryMarkInput,
  type SalesSettingsInput,
} from "./schemas";

/*
 * The sales reports read the ledger (what the console created plus what the gateway confirmed) and
 * count only confirmed money: a sale is a charge with a payment time (`paid_at`), which only the
 * gateway's creation answer or its own lookup sets; a notification the gateway has not confirmed
 * (`pending_status`) is never a sale. Refunded and charged back are the row's confirmed status.
 * Currencies are never added together. Days are São Paulo calendar days.
 */

// ---------------------------------------------------------------------------
// What a sale is
// ---------------------------------------------------------------------------

/** Subscription definitions are not money (their charges arrive as transactions); a Pix deposit is the producer's own money in, not a sale. */
const NOT_SALES = [...OPERATION_KINDS.filter((kind) => kind.endsWith("_subscription")), "pix_deposit"];
const quoted = (values: readonly string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ");
const SALE = sql.raw(`kind not in (${quoted(NOT_SALES)})`);
/** The gateway created it: the console's own submission it answered, or a transaction its lookup confirmed. */
const CREATED = sql.raw(`(origin <> 'console' or submission = 'SUBMITTED')`);
const NORMALIZED_STATUS = `upper(regexp_replace(trim(status), '[\\s-]+', '_', 'g'))`;
/**
 * Still awaiting payment at the gateway, by transactionMachine's spellings: the same list as the partial index
 * `ledger_account_awaiting_idx` (a test checks it). Refunded and charged back are read by the rollup trigger (migration 0015).
 */
const AWAITING = sql.raw(`(status is not null and ${NORMALIZED_STATUS} in (${quoted(spellingsOf(transactionMachine, "awaiting"))}))`);
/**
 * Closed without payment at the gateway: it can no longer be paid (a renewal in this state is still owed: only a fresh charge
 * helps). The same list as the partial index `ledger_account_unpayable_idx` (a test checks it).
 */
const UNPAYABLE = sql.raw(
  `(${NORMALIZED_STATUS} in (${quoted((["failed", "canceled", "expired"] as const).flatMap((state) => spellingsOf(transactionMachine, state)))}))`,
);
const NORMALIZED_METHOD = sql.raw(`upper(trim(payment_method))`);

const ZONE = sql.raw(`'America/Sao_Paulo'`);
/** The instant a São Paulo day starts, and the one after its last moment. */
const startOf = (day: string) => sql`((${day}::date)::timestamp at time zone ${ZONE})`;
const endOf = (day: string) => sql`((${day}::date + 1)::timestamp at time zone ${ZONE})`;

type Num = string | number | null;
const n = (value: Num | undefined): number => Number(value ?? 0);
const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
/** BRL first, then the other currencies by name. */
const byCurrencyOrder = (a: string, b: string) => (a === "BRL" ? -1 : b === "BRL" ? 1 : a.localeCompare(b));

/** Card charges are approved or declined; Pix and boleto are paid or left unpaid. */
export type RateKind = "approval" | "conversion";
export const rateKindOf = (method: string | null): RateKind => (method?.toUpperCase() === "CREDIT_CARD" ? "approval" : "conversion");

// ---------------------------------------------------------------------------
// Overview of a period
// ---------------------------------------------------------------------------

/** One payment method of one currency in a period. */
export type MethodFigures = {
  /** The gateway's payment method, trimmed and upper-cased (PIX, CREDIT_CARD, BOLETO, CRYPTO …); null when never reported. */
  method: string | null;
  rateKind: RateKind;
  /** Charges the gateway created in the period (by creation day). */
  createdCount: number;
  /** Of those, the ones paid by now (confirmed): the conversion, or the card approval. */
  paidOfCreatedCount: number;
  /** paidOfCreatedCount / createdCount; null with nothing created. */
  rate: number | null;
  /** Sales paid in the period (by payment day) and their amount. */
  salesCount: number;
  revenueCents: number;
};

/** One currency in a period: never added to another currency. */
export type SalesFigures = {
  currency: string;
  /** Sales paid in the period (confirmed payment time in it), whatever happened to them later. */
  salesCount: number;
  revenueCents: number;
  /** revenueCents / salesCount, rounded to the cent; null without sales. */
  averageTicketCents: number | null;
  /** Of the period's sales, those whose confirmed status is now refunded / charged back, and the rates over salesCount. */
  refundedCount: number;
  refundedCents: number;
  refundRate: number | null;
  chargedBackCount: number;
  chargedBackCents: number;
  chargebackRate: number | null;
  /** Median of paid_at − created_at over the period's Pix sales, in seconds; null without Pix sales. */
  pixMedianSecondsToPay: number | null;
  /** Of the period's sales, those paid after a `contacted` mark on the recovery list. */
  recoveredCount: number;
  recoveredCents: number;
  /**
   * BRL only (null for other currencies): the fees and splits the gateway reported for the period's
   * sales (the ledger row's fee plus the request's splits, as their `fee` and `split` movements take
   * them), revenue minus them, and how many of the sales have no fee reported yet (nothing off).
   */
  feesCents: number | null;
  netRevenueCents: number | null;
  feesUntoldCount: number | null;
  methods: MethodFigures[];
};

/** One São Paulo day of a currency: its sales (by payment day). Every day of the period is present, zeros included. */
export type DailySales = { day: string; currency: string; salesCount: number; revenueCents: number };

export type SalesPeriodReport = { period: SalesPeriod; byCurrency: SalesFigures[]; daily: DailySales[] };
export type SalesOverview = { current: SalesPeriodReport; comparison: SalesPeriodReport };

export type OverviewPeriods = { from: string; to: string; compareFrom?: string; compareTo?: string };

type Periods = { key: "current" | "comparison"; period: SalesPeriod }[];

/*
 * The overview and the origin table read `sales_daily`, the daily rollups a trigger keeps in the
 * transaction that records each fact (migration 0015, lib/sales/README.md): a 90-day report reads a
 * few thousand rollup rows instead of hundreds of thousands of ledger rows.
 */

/** The rollup rows of one cohort and dimension in each period, summed per period and the given columns. */
function rollupsIn(accountId: string, periods: Periods, where: SQL, columns: string[]): SQL {
  const keys = sql.raw(columns.join(", "));
  return sql`select period, ${keys}, sum(charges) as charges, sum(paid) as paid, sum(amount_cents) as amount_cents,
      sum(refunded) as refunded, sum(refunded_cents) as refunded_cents, sum(charged_back) as charged_back,
      sum(charged_back_cents) as charged_back_cents, sum(fee_cents) as fee_cents, sum(fee_untold) as fee_untold
    from (${sql.join(
      periods.map(
        ({ key, period }) => sql`select ${key}::text as period, day::text as day_text, * from sales_daily
          where account_id = ${accountId} and ${where} and day >= ${period.from}::date and day <= ${period.to}::date`,
      ),
      sql` union all `,
    )}) r
    group by period, ${keys}`;
}

type Sums = {
  period: string;
  charges: Num;
  paid: Num;
  amount_cents: Num;
  refunded: Num;
  refunded_cents: Num;
  charged_back: Num;
  charged_back_cents: Num;
  fee_cents: Num;
  fee_untold: Num;
};
type MethodRow = Sums & { cohort: "created" | "paid"; day_text: string; value: string; currency: string };
type BucketRow = { period: string; currency: string; value: string; charges: Num };
type ExactMedianRow = { period: string; currency: string; median: Num };
type RecoveredRow = { period: string; currency: string; sales: Num; cents: Num };

/** Up to this many Pix sales in a period, the median time to pay is computed exactly from the ledger; beyond, from the rollups' histogram. */
export const EXACT_MEDIAN_MAX_SALES = 10_000;
/** Buckets of the time-to-pay histogram per doubling of the seconds (migration 0015): a median read from it is within ±2.2 %. */
export const PIX_SECONDS_BUCKETS_PER_DOUBLING = 16;

/**
 * The median (percentile_cont 0.5) of a histogram of seconds: bucket 0 holds [0, 1) s, bucket b ≥ 1
 * holds [2^((b−1)/16), 2^(b/16)) s; the value is placed inside its bucket by its rank (geometrically).
 */
export function medianFromHistogram(buckets: { bucket: number; count: number }[]): number | null {
  const sorted = buckets.filter((b) => b.count > 0).sort((a, b) => a.bucket - b.bucket);
  const total = sorted.reduce((sum, b) => sum + b.count, 0);
  if (total === 0) return null;
  const rank = (total - 1) / 2;
  let before = 0;
  for (const { bucket, count } of sorted) {
    if (rank < before + count) {
      const fraction = Math.min(1, Math.max(0, (rank - before + 0.5) / count));
      if (bucket === 0) return fraction;
      const low = 2 ** ((bucket - 1) / PIX_SECONDS_BUCKETS_PER_DOUBLING);
      const high = 2 ** (bucket / PIX_SECONDS_BUCKETS_PER_DOUBLING);
      return low * (high / low) ** fraction;
    }
    before += count;
  }
  return null;
}

/**
 * Counts, per currency, the sales paid in the period and in the comparison period (default: the
 * same number of days just before): confirmed revenue, sales, average ticket, refund and chargeback
 * rates of those sales, the Pix median time to pay and recovered revenue; per payment method the
 * charges created in the period and how many of them are paid by now; and each day's sales.
 */
export async function salesOverview(accountId: string, periods: OverviewPeriods): Promise<SalesOverview> {
  const current = checkPeriod({ from: periods.from, to: periods.to });
  const comparison =
    periods.compareFrom && periods.compareTo ? checkPeriod({ from: periods.compareFrom, to: periods.compareTo }) : previousPeriod(current);
  const both: Periods = [
    { key: "current", period: current },
    { key: "comparison", period: comparison },
  ];
  const db = await getDb();
  const pix = sql.raw(`upper(trim(payment_method)) = 'PIX'`);
  // Three statements at once: on Postgres they run on separate connections (PGlite takes them in turn).
  const [methods, buckets, recovered] = await Promise.all([
    db.execute<MethodRow>(
      rollupsIn(accountId, both, sql`cohort in ('created', 'paid') and dimension = 'method'`, ["cohort", "day_text", "value", "currency"]),
    ),
    db.execute<BucketRow>(sql`
      select period, currency, value, charges from (${rollupsIn(accountId, both, sql`cohort = 'paid' and dimension = 'pix_seconds'`, ["currency", "value"])}) h`),
    db.execute<RecoveredRow>(sql`
      select period, currency, count(*) as sales, coalesce(sum(amount_cents), 0) as cents from (
        select distinct l.id, l.currency, l.amount_cents,
          case when l.paid_at >= ${startOf(current.from)} and l.paid_at < ${endOf(current.to)} then 'current' else 'comparison' end as period
        from recovery_marks m
        join ledger_transactions marked on marked.id = m.ledger_id
        -- The contacted charge itself, or a charge "Nova cobrança" made for it when it is a subscription's renewal.
        join ledger_transactions l on l.account_id = ${accountId}
          and (l.id = marked.id or ${madeFor("l", sql`marked.gateway_transaction_id`)})
        where m.account_id = ${accountId} and m.state = 'contacted' and m.at < l.paid_at and l.${SALE}
          and ((l.paid_at >= ${startOf(current.from)} and l.paid_at < ${endOf(current.to)})
            or (l.paid_at >= ${startOf(comparison.from)} and l.paid_at < ${endOf(comparison.to)}))
      ) r group by period, currency`),
  ]);
  // Periods with few Pix sales (the rollups count them) get the exact median from the ledger; the others read the histogram.
  const pixSales = (key: string) =>
    methods.rows.filter((r) => r.period === key && r.cohort === "paid" && r.value === "PIX").reduce((sum, r) => sum + n(r.charges), 0);
  const exactPeriods = both.filter(({ key }) => pixSales(key) > 0 && pixSales(key) <= EXACT_MEDIAN_MAX_SALES);
  const exact =
    exactPeriods.length === 0
      ? { rows: [] as ExactMedianRow[] }
      : await db.execute<ExactMedianRow>(sql`
          select period, currency, percentile_cont(0.5) within group (order by seconds) as median from (${sql.join(
            exactPeriods.map(
              ({ key, period }) => sql`select ${key}::text as period, currency, extract(epoch from paid_at - created_at) as seconds
                from ledger_transactions
                where account_id = ${accountId} and paid_at >= ${startOf(period.from)} and paid_at < ${endOf(period.to)} and ${SALE} and ${pix}`,
            ),
            sql` union all `,
          )}) p group by period, currency`);

  const report = (key: "current" | "comparison", period: SalesPeriod): SalesPeriodReport => {
    const rows = methods.rows.filter((row) => row.period === key);
    const paidRows = rows.filter((row) => row.cohort === "paid");
    const exactRows = exact.rows.filter((row) => row.period === key);
    const exactIsWhole = exactPeriods.some((p) => p.key === key);
    // A rollup row may be back at zero (its charges moved to another key): a currency shows when it has something.
    const currencies = [...new Set(["BRL", ...rows.filter((r) => n(r.charges) !== 0).map((r) => r.currency)])].sort(byCurrencyOrder);
    const byCurrency = currencies.map((currency): SalesFigures => {
      const mine = rows.filter((r) => r.currency === currency);
      const methodFigures = new Map<string, MethodFigures>();
      const methodOf = (value: string) => {
        let figures = methodFigures.get(value);
        if (!figures) {
          const method = value === "" ? null : value;
          figures = {
            method,
            rateKind: rateKindOf(method),
            createdCount: 0,
            paidOfCreatedCount: 0,
            rate: null,
            salesCount: 0,
            revenueCents: 0,
          };
          methodFigures.set(value, figures);
        }
        return figures;
      };
      const totals = { sales: 0, revenue: 0, refunded: 0, refundedCents: 0, chargedBack: 0, chargedBackCents: 0, fees: 0, feesUntold: 0 };
      for (const row of mine) {
        const figures = methodOf(row.value);
        if (row.cohort === "created") {
          figures.createdCount += n(row.charges);
          figures.paidOfCreatedCount += n(row.paid);
          continue;
        }
        figures.salesCount += n(row.charges);
        figures.revenueCents += n(row.amount_cents);
        totals.sales += n(row.charges);
        totals.revenue += n(row.amount_cents);
        totals.refunded += n(row.refunded);
        totals.refundedCents += n(row.refunded_cents);
        totals.chargedBack += n(row.charged_back);
        totals.chargedBackCents += n(row.charged_back_cents);
        totals.fees += n(row.fee_cents);
        totals.feesUntold += n(row.fee_untold);
      }
      for (const figures of methodFigures.values()) figures.rate = rate(figures.paidOfCreatedCount, figures.createdCount);
      const exactMedian = exactRows.find((r) => r.currency === currency);
      const pixMedianSecondsToPay = exactIsWhole
        ? exactMedian && exactMedian.median !== null
          ? n(exactMedian.median)
          : null
        : medianFromHistogram(
            buckets.rows
              .filter((b) => b.period === key && b.currency === currency)
              .map((b) => ({ bucket: Number(b.value), count: n(b.charges) })),
          );
      const recoveredRow = recovered.rows.find((r) => r.period === key && r.currency === currency);
      const feesCents = currency === "BRL" ? totals.fees : null;
      return {
        currency,
        salesCount: totals.sales,
        revenueCents: totals.revenue,
        averageTicketCents: totals.sales > 0 ? Math.round(totals.revenue / totals.sales) : null,
        refundedCount: totals.refunded,
        refundedCents: totals.refundedCents,
        refundRate: rate(totals.refunded, totals.sales),
        chargedBackCount: totals.chargedBack,
        chargedBackCents: totals.chargedBackCents,
        chargebackRate: rate(totals.chargedBack, totals.sales),
        pixMedianSecondsToPay,
        recoveredCount: n(recoveredRow?.sales),
        recoveredCents: n(recoveredRow?.cents),
        feesCents,
        netRevenueCents: feesCents === null ? null : totals.revenue - feesCents,
        feesUntoldCount: currency === "BRL" ? totals.feesUntold : null,
        methods: [...methodFigures.values()]
          .filter((m) => m.createdCount + m.salesCount > 0)
          .sort(
            (a, b) => b.createdCount + b.salesCount - (a.createdCount + a.salesCount) || String(a.method).localeCompare(String(b.method)),
          ),
      };
    });
    const days = daysOf(period);
    const daily = currencies.flatMap((currency) => {
      const perDay = new Map<string, { salesCount: number; revenueCents: number }>();
      for (const row of paidRows) {
        if (row.currency !== currency) continue;
        const day = perDay.get(row.day_text) ?? { salesCount: 0, revenueCents: 0 };
        day.salesCount += n(row.charges);
        day.revenueCents += n(row.amount_cents);
        perDay.set(row.day_text, day);
      }
      return days.map((day) => ({ day, currency, salesCount: 0, revenueCents: 0, ...perDay.get(day) }));
    });
    return { period, byCurrency, daily };
  };
  return { current: report("current", current), comparison: report("comparison", comparison) };
}

// ---------------------------------------------------------------------------
// By origin
// ---------------------------------------------------------------------------

export const ORIGIN_DIMENSIONS = ["utm_source", "utm_medium", "utm_campaign", "product", "offer", "origin_label"] as const;
export type OriginDimension = (typeof ORIGIN_DIMENSIONS)[number];

/** The label key of the row of sales with no value for the dimension: "direto / desconhecida". */
export const DIRECT_ORIGIN_LABEL_KEY = "sales.origin.direct";

export type OriginCurrencyFigures = {
  currency: string;
  salesCount: number;
  revenueCents: number;
  refundedCount: number;
  chargedBackCount: number;
  /** BRL only, null for other currencies: as the overview's feesCents, netRevenueCents and feesUntoldCount, for this origin's sales. */
  feesCents: number | null;
  netRevenueCents: number | null;
  feesUntoldCount: number | null;
};

export type OriginRow = {
  /** The dimension's value; null for sales with none (direct or unknown origin), kept as a row of its own. */
  value: string | null;
  /** DIRECT_ORIGIN_LABEL_KEY when value is null. */
  labelKey: typeof DIRECT_ORIGIN_LABEL_KEY | null;
  /** Charges the gateway created in the period, and how many of them are paid by now. */
  createdCount: number;
  paidOfCreatedCount: number;
  conversionRate: number | null;
  /** Sales paid in the period, all currencies (a count, not money). */
  salesCount: number;
  /** Of those sales, the ones now refunded / charged back (confirmed status), and the rates over salesCount. */
  refundedCount: number;
  refundRate: number | null;
  chargedBackCount: number;
  chargebackRate: number | null;
  /** Money per currency, BRL first, never added together. */
  byCurrency: OriginCurrencyFigures[];
};

type OriginSums = Sums & { cohort: "created" | "paid"; value: string; currency: string };

/**
 * Counts, per value of one origin dimension, the charges created in the period and how many of
 * them are paid by now, and the sales paid in the period (revenue per currency) with how many of
 * them are now refunded or charged back. Sales with no value form the "direto / desconhecida" row.
 * Rows by sales, then created charges, most first.
 */
export async function salesByOrigin(accountId: string, period: SalesPeriod, options: { dimension: OriginDimension }): Promise<OriginRow[]> {
  const checked = checkPeriod(period);
  if (!(ORIGIN_DIMENSIONS as readonly string[]).includes(options.dimension))
    throw new Error(`unknown origin dimension ${String(options.dimension)}`);
  const db = await getDb();
  const sums = await db.execute<OriginSums>(
    rollupsIn(accountId, [{ key: "current", period: checked }], sql`cohort in ('created', 'paid') and dimension = ${options.dimension}`, [
      "cohort",
      "value",
      "currency",
    ]),
  );
  const rows = new Map<string, OriginRow>();
  const rowOf = (v: string) => {
    let row = rows.get(v);
    if (!row) {
      row = {
        value: v === "" ? null : v,
        labelKey: v === "" ? DIRECT_ORIGIN_LABEL_KEY : null,
        createdCount: 0,
        paidOfCreatedCount: 0,
        conversionRate: null,
        salesCount: 0,
        refundedCount: 0,
        refundRate: null,
        chargedBackCount: 0,
        chargebackRate: null,
        byCurrency: [],
      };
      rows.set(v, row);
    }
    return row;
  };
  for (const r of sums.rows) {
    const row = rowOf(r.value);
    if (r.cohort === "created") {
      row.createdCount += n(r.charges);
      row.paidOfCreatedCount += n(r.paid);
      continue;
    }
    if (n(r.charges) === 0) continue;
    row.salesCount += n(r.charges);
    row.refundedCount += n(r.refunded);
    row.chargedBackCount += n(r.charged_back);
    const feesCents = r.currency === "BRL" ? n(r.fee_cents) : null;
    row.byCurrency.push({
      currency: r.currency,
      salesCount: n(r.charges),
      revenueCents: n(r.amount_cents),
      refundedCount: n(r.refunded),
      chargedBackCount: n(r.charged_back),
      feesCents,
      netRevenueCents: feesCents === null ? null : n(r.amount_cents) - feesCents,
      feesUntoldCount: r.currency === "BRL" ? n(r.fee_untold) : null,
    });
  }
  for (const row of rows.values()) {
    row.conversionRate = rate(row.paidOfCreatedCount, row.createdCount);
    row.refundRate = rate(row.refundedCount, row.salesCount);
    row.chargebackRate = rate(row.chargedBackCount, row.salesCount);
    row.byCurrency.sort((a, b) => byCurrencyOrder(a.currency, b.currency));
  }
  return [...rows.values()]
    .filter((row) => row.createdCount + row.salesCount > 0)
    .sort(
      (a, b) =>
        b.salesCount - a.salesCount ||
        b.createdCount - a.createdCount ||
        (a.value === null ? 1 : b.value === null ? -1 : a.value.localeCompare(b.value)),
    );
}

// ---------------------------------------------------------------------------
// Recovery
// ---------------------------------------------------------------------------

/** Boletos whose due date neither the request nor the gateway names are taken as due this many days after creation (the family's usual default). */
export const DEFAULT_BOLETO_DUE_DAYS = 3;
/** Charges older than this are not worth a message: the list stops there unless asked otherwise. */
export const DEFAULT_RECOVERY_MAX_AGE_DAYS = 30;
export const RECOVERY_PAGE_SIZE = 100;

export type RecoveryOptions = {
  pixDelayMs: number;
  boletoDelayMs: number;
  now?: Date;
  /** Only charges created in the last this many days (default 30). */
  maxAgeDays?: number;
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string | null;
};

/** A subscription's renewal on the recovery list (lib/subscriptions/dunning.ts). */
export type RecoveryRenewal = {
  subscriptionId: string;
  subscriptionIdentifier: string | null;
  /** 1 = the subscription's first renewal (its second charge). */
  number: number;
};

export type RecoveryItem = {
  ledgerId: string;
  identifier: string;
  kind: string;
  /** PIX or BOLETO awaiting payment; a renewal that can no longer be paid may be of any method (a declined card). */
  method: string;
  status: string | null;
  amountCents: number | null;
  currency: string;
  /** Contact data: show it only to roles that may see customers' data. */
  customer: { name: string | null; email: string | null; phone: string | null; document: string | null };
  product: string | null;
  origin: {
    utmSource: string | null;
    utmMedium: string | null;
    utmCampaign: string | null;
    offerCode: string | null;
    originLabel: string | null;
  };
  createdAt: Date;
  /** now − createdAt, in milliseconds. */
  ageMs: number;
  /** A boleto's due date (São Paulo day), from the request, else the gateway's record, else creation + DEFAULT_BOLETO_DUE_DAYS. */
  dueDate: string | null;
  /** Where the customer pays: the charge's order page, the boleto's PDF or the checkout they visited. */
  paymentUrl: string | null;
  pixCode: string | null;
  digitableLine: string | null;
  /** False when the charge can no longer be paid (failed, cancelled, expired): no link or code then, only a fresh charge. */
  payable: boolean;
  /** Set when the charge is a subscription's renewal. */
  renewal: RecoveryRenewal | null;
};

export type RecoveryWorklist = { items: RecoveryItem[]; total: number; nextCursor: string | null };

type RecoveryRow = {
  id: string;
  identifier: string;
  kind: string;
  method: string;
  status: string | null;
  amount_cents: Num;
  currency: string;
  client_name: string | null;
  client_email: string | null;
  client_document: string | null;
  client_phone: string | null;
  product_name: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  offer_code: string | null;
  origin_label: string | null;
  created_at: Date | string;
  cursor_at: string;
  due_date: string | null;
  payment_url: string | null;
  pix_code: string | null;
  digitable_line: string | null;
  payable: boolean;
  subscription_id: string | null;
  subscription_identifier: string | null;
  renewal_number: Num;
  total: Num;
};

const ISO_DAY_PREFIX = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}'`;
const dayTextOf = (json: string) => `case when ${json} ~ ${ISO_DAY_PREFIX} then left(${json}, 10) end`;
/** Compared as text (YYYY-MM-DD sorts as dates do), so a malformed date in a gateway's record cannot fail the list. */
const DUE_DATE = sql.raw(`coalesce(${dayTextOf("request->>'dueDate'")}, ${dayTextOf("gateway_record->'boletoInformation'->>'dueDate'")},
  ${dayTextOf("response->'boleto'->>'dueDate'")},
  to_char((created_at at time zone 'America/Sao_Paulo')::date + ${DEFAULT_BOLETO_DUE_DAYS}, 'YYYY-MM-DD'))`);

function encodeCursor(row: Pick<RecoveryRow, "cursor_at" | "id">): string {
  return Buffer.from(JSON.stringify([row.cursor_at, row.id])).toString("base64url");
}

/**
 * Lists, newest first, the charges worth a message: Pix charges created at least `pixDelayMs` ago
 * and boletos whose due day started at least `boletoDelayMs` ago (1 day: from the day after the due
 * date), both still awaiting payment at the gateway (not paid, cancelled, expired or failed; no
 * notification of payment waiting for confirmation); and a subscription's renewals that failed,
 * were cancelled or expired unpaid (a declined card: listed at once, any method), unless the
 * subscription reads cancelled at the gateway. Never marked, created in the last `maxAgeDays`; a
 * renewal also leaves once a charge made for it (`metadata.renovacao`) is paid.
 */
export async function recoveryWorklist(accountId: string, options: RecoveryOptions): Promise<RecoveryWorklist> {
  const now = options.now ?? new Date();
  const maxAgeDays = options.maxAgeDays ?? DEFAULT_RECOVERY_MAX_AGE_DAYS;
  const limit = Math.max(1, Math.min(500, Math.floor(options.limit ?? RECOVERY_PAGE_SIZE)));
  const since = new Date(now.getTime() - maxAgeDays * 86_400_000);
  const pixBefore = new Date(now.getTime() - options.pixDelayMs);
  // A due day D is listed once D's start (São Paulo) + the delay has passed, i.e. once D ≤ the São Paulo date of now − delay.
  const boletoDueBy = saoPauloDate(new Date(now.getTime() - options.boletoDelayMs));
  // The same [created_at as Postgres prints it, id] as the transactions list's cursor, checked the same way (a time Postgres takes).
  const cursor = ledgerCursorParts(options.cursor);
  const after = cursor ? sql`and (created_at, id) < (${cursor.createdAt}::timestamptz, ${cursor.id})` : sql``;
  const db = await getDb();
  const unmarked = sql`not exists (select 1 from recovery_marks m where m.ledger_id = l.id)`;
  const result = await db.execute<RecoveryRow>(sql`
    with candidates as (
      select id, created_at, method, due_date, true as payable from (
        select id, created_at, ${NORMALIZED_METHOD} as method, case when ${NORMALIZED_METHOD} = 'BOLETO' then ${DUE_DATE} end as due_date
        from ledger_transactions l
        where account_id = ${accountId} and paid_at is null and pending_status is null
          and created_at >= ${since} and ${SALE} and ${CREATED} and ${AWAITING}
          and ${NORMALIZED_METHOD} in ('PIX', 'BOLETO') and ${unmarked}
      ) awaiting
      where (method = 'PIX' and created_at <= ${pixBefore}) or (method = 'BOLETO' and due_date <= ${boletoDueBy})
      union all
      -- Charges that can no longer be paid, through ledger_account_unpayable_idx; only a subscription's renewals stay (below).
      select id, created_at, ${NORMALIZED_METHOD} as method, null as due_date, false as payable
      from ledger_transactions l
      where account_id = ${accountId} and paid_at is null and pending_status is null and created_at >= ${since}
        and ${SALE} and ${UNPAYABLE} and ${unmarked}
    ),
    due as (
      select c.id, c.created_at, c.method, c.due_date, c.payable, renewal.subscription_id, renewal.subscription_identifier,
        renewal.renewal_number, count(*) over () as total
      from candidates c
      join ledger_transactions l on l.id = c.id
      ${renewalJoin("l")}
      where (c.payable or (renewal.subscription_id is not null and not renewal.subscription_canceled))
        and (renewal.subscription_id is null or not exists (
          select 1 from ledger_transactions f
          where f.account_id = ${accountId} and ${madeFor("f", sql`l.gateway_transaction_id`)} and f.paid_at is not null))
    ),
    page as (select * from due where true ${after} order by created_at desc, id desc limit ${limit})
    select l.id, l.identifier, l.kind, page.method, l.status, l.amount_cents, l.currency, l.client_name, l.client_email,
      l.client_document, coalesce(l.request->'client'->>'phone', notification.phone) as client_phone, l.product_name, l.utm_source,
      l.utm_medium, l.utm_campaign, l.offer_code, l.origin_label, l.created_at, l.created_at::text as cursor_at, page.due_date, page.total,
      page.payable, page.subscription_id, page.subscription_identifier, page.renewal_number,
      -- A charge that can no longer be paid shows no way to pay it.
      case when page.payable then coalesce(l.response->'order'->>'url', l.response->'boleto'->>'pdfUrl',
        l.gateway_record->'boletoInformation'->>'pdfUrl', notification.checkout_url) end as payment_url,
      case when page.payable then coalesce(l.response->'pix'->>'code', l.gateway_record->'pixInformation'->>'qrCode') end as pix_code,
      case when page.payable then coalesce(l.response->'boleto'->>'digitableLine', l.gateway_record->'boletoInformation'->>'digitableLine')
        end as digitable_line
    from page
    join ledger_transactions l on l.id = page.id
    left join lateral (
      select nullif(e.payload->'client'->>'phone', '') as phone, nullif(e.payload->>'checkoutUrl', '') as checkout_url
      from gateway_notifications e
      where e.ledger_id = page.id and e.kind = 'payment' and coalesce(e.confirmation, '') <> 'contradicted'
      order by e.first_received_at desc limit 1
    ) notification on true
    order by page.created_at desc, page.id desc`);
  const items = result.rows.map((row): RecoveryItem => {
    const createdAt = new Date(row.created_at);
    return {
      ledgerId: row.id,
      identifier: row.identifier,
      kind: row.kind,
      method: row.method,
      status: row.status,
      amountCents: row.amount_cents === null ? null : n(row.amount_cents),
      currency: row.currency,
      customer: { name: row.client_name, email: row.client_email, phone: row.client_phone, document: row.client_document },
      product: row.product_name,
      origin: {
        utmSource: row.utm_source,
        utmMedium: row.utm_medium,
        utmCampaign: row.utm_campaign,
        offerCode: row.offer_code,
        originLabel: row.origin_label,
      },
      createdAt,
      ageMs: now.getTime() - createdAt.getTime(),
      dueDate: row.due_date,
      paymentUrl: row.payment_url,
      pixCode: row.pix_code,
      digitableLine: row.digitable_line,
      payable: row.payable,
      renewal: row.subscription_id
        ? { subscriptionId: row.subscription_id, subscriptionIdentifier: row.subscription_identifier, number: n(row.renewal_number) }
        : null,
    };
  });
  const last = result.rows.at(-1);
  const total = n(result.rows[0]?.total);
  // The window's count covers the whole list; on a later page it still does (the cursor filters after it).
  return { items, total, nextCursor: last && result.rows.length === limit ? encodeCursor(last) : null };
}

export class RecoveryTargetNotFoundError extends Error {
  constructor(readonly ledgerId: string) {
    super("no such charge in this account");
  }
}

export type RecoveryMark = { id: string; state: RecoveryMarkState; note: string | null; byEmail: string | null; at: Date };

/** One mark on a charge of this account (another account's is not found), with its audit entry. */
async function addMark(
  accountId: string,
  mark: { ledgerId: string; state: RecoveryMarkState; note: string | null },
  audit: { action: string; details: Record<string, unknown> },
  actor: { id: string; email: string },
  ip: string | null | undefined,
): Promise<RecoveryMark> {
  const db = await getDb();
  const [row] = await db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.id, mark.ledgerId)));
  if (!row) throw new RecoveryTargetNotFoundError(mark.ledgerId);
  const [added] = await db
    .insert(recoveryMarks)
    .values({ accountId, ...mark, byUserId: actor.id, byEmail: actor.email })
    .returning();
  await writeAudit({ actor, accountId, action: audit.action, target: mark.ledgerId, ip: ip ?? null, details: audit.details });
  return { id: added.id, state: added.state, note: added.note, byEmail: added.byEmail, at: added.at };
}

/** Records that someone contacted the customer of a charge (or gave it up): it leaves the recovery list; audited. */
export async function markRecovery(
  accountId: string,
  input: RecoveryMarkInput,
  actor: { id: string; email: string },
  ip?: string | null,
): Promise<RecoveryMark> {
  const { ledgerId, state, note } = recoveryMarkSchema.parse(input);
  return addMark(accountId, { ledgerId, state, note: note || null }, { action: "sales.recovery_marked", details: { state } }, actor, ip);
}

/**
 * Records that someone opened WhatsApp or e-mail with a charge's message: a `contacted` mark (the
 * charge leaves the list, and a payment after it counts as recovered), audited with the channel.
 * Opening the message is the contact the console can see; whether it was sent stays with the person.
 */
export async function recordRecoveryContact(
  accountId: string,
  input: RecoveryContactInput,
  actor: { id: string; email: string },
  ip?: string | null,
): Promise<RecoveryMark> {
  const { ledgerId, channel } = recoveryContactSchema.parse(input);
  return addMark(
    accountId,
    { ledgerId, state: "contacted", note: null },
    { action: "sales.recovery_contacted", details: { state: "contacted", channel } },
    actor,
    ip,
  );
}

/** Every mark of one charge of this account, oldest first. */
export async function recoveryMarksOf(accountId: string, ledgerId: string): Promise<RecoveryMark[]> {
  const db = await getDb();
  return db
    .select({
      id: recoveryMarks.id,
      state: recoveryMarks.state,
      note: recoveryMarks.note,
      byEmail: recoveryMarks.byEmail,
      at: recoveryMarks.at,
    })
    .from(recoveryMarks)
    .where(and(eq(recoveryMarks.accountId, accountId), eq(recoveryMarks.ledgerId, ledgerId)))
    .orderBy(asc(recoveryMarks.at), asc(recoveryMarks.id));
}

// ---------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------

export type SalesSettings = SalesSettingsInput & { updatedByEmail: string | null; updatedAt: Date | null; isDefault: boolean };

export const DEFAULT_SALES_SETTINGS: SalesSettingsInput = {
  pixDelayMs: 15 * 60_000,
  boletoDelayMs: 86_400_000,
  messageTemplate: DEFAULT_RECOVERY_TEMPLATE,
  renewalTemplate: DEFAULT_RENEWAL_TEMPLATE,
};

/** The account's sales settings, or the defaults (15 minutes for Pix, 1 day after the due date for boletos, the pt-BR template). */
export async function getSalesSettings(accountId: string): Promise<SalesSettings> {
  const db = await getDb();
  const [row] = await db.select().from(salesSettings).where(eq(salesSettings.accountId, accountId)).limit(1);
  if (!row) return { ...DEFAULT_SALES_SETTINGS, updatedByEmail: null, updatedAt: null, isDefault: true };
  return {
    pixDelayMs: row.pixDelayMs,
    boletoDelayMs: row.boletoDelayMs,
    messageTemplate: row.messageTemplate,
    renewalTemplate: row.renewalTemplate ?? DEFAULT_RENEWAL_TEMPLATE,
    updatedByEmail: row.updatedByEmail,
    updatedAt: row.updatedAt,
    isDefault: false,
  };
}

/** Saves the account's sales settings (validated again here); audited. */
export async function saveSalesSettings(
  accountId: string,
  input: SalesSettingsInput,
  actor: { id: string; email: string },
  ip?: string | null,
): Promise<SalesSettings> {
  const parsed = salesSettingsSchema.parse(input);
  const db = await getDb();
  const values = { ...parsed, updatedByEmail: actor.email, updatedAt: new Date() };
  await db
    .insert(salesSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: salesSettings.accountId, set: values });
  await writeAudit({
    actor,
    accountId,
    action: "sales.settings_updated",
    ip: ip ?? null,
    details: { pixDelayMs: parsed.pixDelayMs, boletoDelayMs: parsed.boletoDelayMs },
  });
  return { ...parsed, updatedByEmail: actor.email, updatedAt: values.updatedAt, isDefault: false };
}
