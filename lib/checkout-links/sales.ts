import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

/*
 * The sales each hosted checkout brought. The interface's checkout answer is only a URL: the link
 * has no id of its own to find in a payment. A payment notification carries the exact URL the buyer
 * visited (`checkoutUrl`, with session, offer and UTM parameters) and the offer code; the page a
 * link names is that URL without its query and fragment. So a sale belongs to the link whose URL
 * is its visited page, or, for a sale whose notification had no URL, to the page other sales of the
 * same offer code were made on. A URL the console did not create is listed as learned from the
 * notifications (a link made elsewhere, or by the demo).
 *
 * Only confirmed money counts, as in the sales reports: a sale is a ledger row with a payment time
 * (`paid_at`), which only the gateway's creation answer or its own lookup sets. Notifications the
 * gateway contradicted are not read.
 */

/** A link's page: the URL without query, fragment or trailing slash. */
export function checkoutPageOf(url: string): string {
  return url.split("#")[0].split("?")[0].replace(/\/+$/, "");
}

const PAGE_OF = (column: string) => `nullif(regexp_replace(split_part(split_part(${column}, '#', 1), '?', 1), '/+$', ''), '')`;

/** Every sale of the account that came through a checkout page, with that page. */
const SALES_BY_PAGE = (accountId: string) => sql`
  with visits as (
    select distinct on (l.id) l.id, ${sql.raw(PAGE_OF("e.payload->>'checkoutUrl'"))} as page
    from ledger_transactions l
    join gateway_notifications e on e.ledger_id = l.id and e.account_id = ${accountId}
    where l.account_id = ${accountId} and l.paid_at is not null and e.kind = 'payment'
      and coalesce(e.confirmation, '') <> 'contradicted' and nullif(e.payload->>'checkoutUrl', '') is not null
    order by l.id, e.first_received_at desc
  ),
  offer_pages as (
    select distinct on (l.offer_code) l.offer_code, v.page
    from visits v join ledger_transactions l on l.id = v.id
    where l.offer_code is not null
    order by l.offer_code, l.paid_at desc
  ),
  sales as (
    select l.id, l.identifier, l.amount_cents, l.currency, l.paid_at, l.status, l.client_name, l.product_name, l.offer_code,
      coalesce(v.page, o.page) as page
    from ledger_transactions l
    left join visits v on v.id = l.id
    left join offer_pages o on o.offer_code = l.offer_code
    where l.account_id = ${accountId} and l.paid_at is not null
      and l.kind not in ('pix_deposit', 'pix_subscription', 'card_subscription', 'crypto_subscription')
      and (v.page is not null or o.page is not null)
  )`;

type Num = string | number | null;
const n = (value: Num | undefined): number => Number(value ?? 0);

export type CheckoutRevenue = { currency: string; revenueCents: number };

export type CheckoutPageSales = {
  /** The page (`checkoutPageOf`) the sales were made on. */
  page: string;
  salesCount: number;
  /** Per currency (never added together), BRL first. */
  revenue: CheckoutRevenue[];
  lastSaleAt: Date | null;
  /** What the latest sale said of the product and offer: names a learned link. */
  productName: string | null;
  offerCode: string | null;
};

type PageRow = {
  page: string;
  currency: string;
  sales: Num;
  cents: Num;
  last_at: Date | string | null;
  product_name: string | null;
  offer_code: string | null;
};

const byCurrencyOrder = (a: CheckoutRevenue, b: CheckoutRevenue) =>
  a.currency === "BRL" ? -1 : b.currency === "BRL" ? 1 : a.currency.localeCompare(b.currency);

/** The sales of every checkout page the account sold through (or of the one page of `checkoutUrl`), most recent sale first. */
export async function checkoutSalesByPage(accountId: string, checkoutUrl?: string): Promise<CheckoutPageSales[]> {
  const db = await getDb();
  const onePage = checkoutUrl === undefined ? sql`` : sql`where s.page = ${checkoutPageOf(checkoutUrl)}`;
  const result = await db.execute<PageRow>(sql`
    ${SALES_BY_PAGE(accountId)}
    select s.page, s.currency, count(*) as sales, coalesce(sum(s.amount_cents), 0) as cents, max(s.paid_at) as last_at,
      (array_agg(s.product_name order by s.paid_at desc) filter (where s.product_name is not null))[1] as product_name,
      (array_agg(s.offer_code order by s.paid_at desc) filter (where s.offer_code is not null))[1] as offer_code
    from sales s ${onePage} group by s.page, s.currency`);
  const pages = new Map<string, CheckoutPageSales>();
  for (const row of result.rows) {
    const lastAt = row.last_at ? new Date(row.last_at) : null;
    const entry = pages.get(row.page) ?? {
      page: row.page,
      salesCount: 0,
      revenue: [],
      lastSaleAt: null,
      productName: null,
      offerCode: null,
    };
    entry.salesCount += n(row.sales);
    entry.revenue.push({ currency: row.currency, revenueCents: n(row.cents) });
    if (lastAt && (!entry.lastSaleAt || lastAt > entry.lastSaleAt)) {
      entry.lastSaleAt = lastAt;
      entry.productName = row.product_name ?? entry.productName;
      entry.offerCode = row.offer_code ?? entry.offerCode;
    }
    pages.set(row.page, entry);
  }
  return [...pages.values()]
    .map((entry) => ({ ...entry, revenue: entry.revenue.sort(byCurrencyOrder) }))
    .sort((a, b) => (b.lastSaleAt?.getTime() ?? 0) - (a.lastSaleAt?.getTime() ?? 0));
}

export type CheckoutSale = {
  ledgerId: string;
  identifier: string;
  amountCents: number | null;
  currency: string;
  paidAt: Date;
  status: string | null;
  clientName: string | null;
};

type SaleRow = {
  id: string;
  identifier: string;
  amount_cents: Num;
  currency: string;
  paid_at: Date | string;
  status: string | null;
  client_name: string | null;
};

/** The latest sales made on one checkout page (`checkoutPageOf` of the link's URL), newest first. */
export async function latestCheckoutSales(accountId: string, checkoutUrl: string, limit = 10): Promise<CheckoutSale[]> {
  const db = await getDb();
  const result = await db.execute<SaleRow>(sql`
    ${SALES_BY_PAGE(accountId)}
    select s.id, s.identifier, s.amount_cents, s.currency, s.paid_at, s.status, s.client_name
    from sales s where s.page = ${checkoutPageOf(checkoutUrl)}
    order by s.paid_at desc, s.id desc limit ${Math.max(1, Math.min(100, Math.floor(limit)))}`);
  return result.rows.map((row) => ({
    ledgerId: row.id,
    identifier: row.identifier,
    amountCents: row.amount_cents === null ? null : n(row.amount_cents),
    currency: row.currency,
    paidAt: new Date(row.paid_at),
    status: row.status,
    clientName: row.client_name,
  }));
}
