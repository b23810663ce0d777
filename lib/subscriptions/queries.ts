import "server-only";
import { and, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, subscriptionCharges, subscriptions, subscriptionSettings } from "@/lib/db/schema";
import { parseGatewayTime } from "@/lib/gateway/time";
import { stateRulesSchema } from "./rules-schema";
import { addPeriods, readPeriodicity, saoPauloDay, startOfSaoPauloDay, type Periodicity } from "./periods";
import type { SubscriptionFigureInput } from "./figures";
import { chargesInOrder, deriveState, DEFAULT_RULES, type ChargeFacts, type DerivedState, type StateName, type StateRules } from "./rules";

/**
 * Reads of the subscriptions the console created or learned, each with its charges (the ledger
 * rows the gateway confirmed, found by gateway transaction id) and its state worked out by
 * lib/subscriptions/rules.ts. Every query is scoped to one account; callers check the permission.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export type SubscriptionCharge = ChargeFacts & {
  gatewayTransactionId: string;
  /** The ledger row once the gateway confirmed the transaction; null while it has not. */
  ledgerId: string | null;
  identifier: string | null;
  amountCents: number | null;
  currency: string | null;
  /** A notified status waiting for the gateway's confirmation. */
  pendingStatus: string | null;
};

export type SubscriptionView = {
  subscription: SubscriptionRow;
  periodicity: Periodicity | null;
  charges: SubscriptionCharge[];
  state: DerivedState;
  /** The start: as recorded, else the first confirmed charge's due time; null when neither is known. */
  startedAt: Date | null;
  /**
   * The next charge: the gateway's own `nextChargeAt` from the latest object, as told; else
   * calculated as one period after the last charge that fell due (`calculated: true`); null when
   * neither is known.
   */
  nextCharge: { at: Date; calculated: boolean } | null;
  lastPaidAt: Date | null;
  paid: { count: number; totalCents: number };
  /** Charges heard of whose transaction the gateway has not confirmed yet. */
  confirming: number;
};

/** The account's rules of the derived states (the defaults when it has set none). */
export async function subscriptionRules(accountId: string): Promise<StateRules> {
  const db = await getDb();
  const [row] = await db.select().from(subscriptionSettings).where(eq(subscriptionSettings.accountId, accountId)).limit(1);
  return row ? { graceDays: row.graceDays, lostAfterPeriods: row.lostAfterPeriods } : DEFAULT_RULES;
}

/** Sets the account's grace days and periods before lost (validated again here); audited. */
export async function setSubscriptionRules(
  accountId: string,
  input: StateRules,
  actor: { id: string; email: string } | null = null,
  ip: string | null = null,
): Promise<void> {
  const rules = stateRulesSchema.parse(input);
  const db = await getDb();
  const values = { accountId, ...rules, updatedAt: new Date() };
  await db.insert(subscriptionSettings).values(values).onConflictDoUpdate({ target: subscriptionSettings.accountId, set: values });
  await writeAudit({ actor, accountId, action: "subscriptions.rules_updated", details: rules, ip });
}

async function chargesOf(accountId: string, ids: string[]): Promise<Map<string, SubscriptionCharge[]>> {
  const byId = new Map<string, SubscriptionCharge[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const db = await getDb();
  const rows = await db
    .select({
      subscriptionId: subscriptionCharges.subscriptionId,
      gatewayTransactionId: subscriptionCharges.gatewayTransactionId,
      chargeNumber: subscriptionCharges.chargeNumber,
      notifiedIdentifier: subscriptionCharges.identifier,
      ledgerId: ledgerTransactions.id,
      identifier: ledgerTransactions.identifier,
      dueAt: ledgerTransactions.createdAt,
      paidAt: ledgerTransactions.paidAt,
      status: ledgerTransactions.status,
      pendingStatus: ledgerTransactions.pendingStatus,
      amountCents: ledgerTransactions.amountCents,
      currency: ledgerTransactions.currency,
    })
    .from(subscriptionCharges)
    .leftJoin(
      ledgerTransactions,
      and(
        eq(ledgerTransactions.accountId, subscriptionCharges.accountId),
        eq(ledgerTransactions.gatewayTransactionId, subscriptionCharges.gatewayTransactionId),
      ),
    )
    .where(and(eq(subscriptionCharges.accountId, accountId), inArray(subscriptionCharges.subscriptionId, ids)));
  for (const row of rows) {
    byId.get(row.subscriptionId)?.push({
      gatewayTransactionId: row.gatewayTransactionId,
      chargeNumber: row.chargeNumber,
      ledgerId: row.ledgerId,
      identifier: row.identifier ?? row.notifiedIdentifier,
      dueAt: row.dueAt,
      paidAt: row.paidAt,
      status: row.status,
      pendingStatus: row.pendingStatus,
      amountCents: row.amountCents,
      currency: row.currency,
    });
  }
  return byId;
}

/** One subscription as the console shows it, at `now`. */
export function viewOf(subscription: SubscriptionRow, charges: SubscriptionCharge[], now: Date, rules: StateRules): SubscriptionView {
  const periodicity = readPeriodicity(subscription.periodicityType, subscription.periodicity);
  const ordered = chargesInOrder(charges);
  const state = deriveState(
    { gatewayStatus: subscription.gatewayStatus, gatewayStatusAt: subscription.gatewayRecordAt, periodicity, charges: ordered },
    now,
    rules,
  );
  const paidCharges = ordered.filter((charge) => charge.paidAt !== null);
  const fellDue = ordered.filter((charge) => charge.dueAt !== null && charge.dueAt <= now);
  const lastDue = fellDue.at(-1)?.dueAt ?? null;
  const told = parseGatewayTime(subscription.gatewayRecord?.nextChargeAt);
  const nextCharge = told
    ? { at: told, calculated: false }
    : lastDue && periodicity
      ? { at: nextAfter(lastDue, periodicity), calculated: true }
      : null;
  return {
    subscription,
    periodicity,
    charges: ordered,
    state,
    startedAt: subscription.startedAt ?? ordered.find((charge) => charge.dueAt)?.dueAt ?? null,
    nextCharge,
    lastPaidAt: paidCharges.reduce<Date | null>((latest, charge) => (!latest || charge.paidAt! > latest ? charge.paidAt : latest), null),
    paid: { count: paidCharges.length, totalCents: paidCharges.reduce((sum, charge) => sum + (charge.amountCents ?? 0), 0) },
    confirming: ordered.filter((charge) => charge.ledgerId === null).length,
  };
}

/** One period after a due instant, on the São Paulo calendar, at the same time of day. */
function nextAfter(due: Date, periodicity: Periodicity): Date {
  const day = saoPauloDay(due);
  const offset = due.getTime() - startOfSaoPauloDay(day).getTime();
  return new Date(startOfSaoPauloDay(addPeriods(day, periodicity.type, periodicity.every)).getTime() + offset);
}

export type SubscriptionFilters = {
  state?: StateName;
  /** The payment method as stored (`PIX`, `CREDIT_CARD`, `CRYPTO`…). */
  method?: string;
  /** Product name, exactly. */
  product?: string;
  /** Part of the customer's name, e-mail or document. */
  customer?: string;
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The account's subscriptions, newest first, filtered: method, product and customer in the query;
 * the state, worked out from the charges, after it. At most `limit` rows come back.
 */
export async function listSubscriptions(
  accountId: string,
  filters: SubscriptionFilters = {},
  options: { now?: Date; limit?: number } = {},
): Promise<SubscriptionView[]> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? 200;
  const where: SQL[] = [eq(subscriptions.accountId, accountId)];
  if (filters.method) where.push(eq(subscriptions.paymentMethod, filters.method));
  if (filters.product) where.push(eq(subscriptions.productName, filters.product));
  const customer = filters.customer?.trim();
  if (customer) {
    const pattern = `%${escapeLike(customer)}%`;
    where.push(
      or(
        ilike(subscriptions.clientName, pattern),
        ilike(subscriptions.clientEmail, pattern),
        ilike(subscriptions.clientDocument, pattern),
      )!,
    );
  }
  const db = await getDb();
  const rules = await subscriptionRules(accountId);
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(...where))
    .orderBy(sql`${subscriptions.startedAt} desc nulls last`, desc(subscriptions.id));
  const views: SubscriptionView[] = [];
  // In slices, so the charges of a long list are read a few hundred subscriptions at a time.
  for (let i = 0; i < rows.length && views.length < limit; i += 500) {
    const slice = rows.slice(i, i + 500);
    const charges = await chargesOf(
      accountId,
      slice.map((row) => row.id),
    );
    for (const row of slice) {
      const view = viewOf(row, charges.get(row.id) ?? [], now, rules);
      if (!filters.state || view.state.state === filters.state) views.push(view);
      if (views.length >= limit) break;
    }
  }
  return views;
}

/** One subscription of the account with its charges in order, or null. */
export async function getSubscription(accountId: string, id: string, now = new Date()): Promise<SubscriptionView | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.id, id)))
    .limit(1);
  if (!row) return null;
  const charges = await chargesOf(accountId, [row.id]);
  return viewOf(row, charges.get(row.id) ?? [], now, await subscriptionRules(accountId));
}

/** The methods and products the account's subscriptions have, for the list's filters. */
export async function subscriptionFacets(accountId: string): Promise<{ methods: string[]; products: string[] }> {
  const db = await getDb();
  const rows = await db
    .selectDistinct({ method: subscriptions.paymentMethod, product: subscriptions.productName })
    .from(subscriptions)
    .where(eq(subscriptions.accountId, accountId));
  const sorted = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))].sort();
  return { methods: sorted(rows.map((r) => r.method)), products: sorted(rows.map((r) => r.product)) };
}

/** Every subscription of the account as the figures read it (lib/subscriptions/figures.ts), and the account's rules. */
export async function subscriptionFigureInputs(accountId: string, now = new Date()) {
  const views = await listSubscriptions(accountId, {}, { now, limit: Number.MAX_SAFE_INTEGER });
  const inputs: SubscriptionFigureInput[] = views.map((view) => ({
    startedAt: view.startedAt,
    amountCents: view.subscription.amountCents,
    periodicity: view.periodicity,
    charges: view.charges,
    gatewayStatus: view.subscription.gatewayStatus,
    gatewayStatusAt: view.subscription.gatewayRecordAt,
  }));
  return { inputs, rules: await subscriptionRules(accountId) };
}
