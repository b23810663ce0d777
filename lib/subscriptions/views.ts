import "server-only";
import { and, eq, getTableColumns, inArray } from "drizzle-orm";
import { getDb, type Database, type Tx } from "@/lib/db/client";
import { ledgerTransactions, subscriptionCharges, subscriptions, subscriptionSettings } from "@/lib/db/schema";
import { parseGatewayTime } from "@/lib/gateway/time";
import type { SubscriptionFigureInput } from "./figures";
import { addPeriods, readPeriodicity, saoPauloDay, startOfSaoPauloDay, type Periodicity } from "./periods";
import {
  chargesInOrder,
  deriveState,
  DEFAULT_RULES,
  type ChargeFacts,
  type DerivedState,
  type StateRules,
  type SubscriptionFacts,
} from "./rules";

/**
 * A subscription as the console shows it: its row, its charges (the ledger rows the gateway
 * confirmed, found by gateway transaction id) and its state at an instant, worked out by
 * lib/subscriptions/rules.ts. Read by the pages (queries.ts) and by the summaries (summaries.ts).
 */

const SUMMARY_KEYS = [
  "since",
  "sinceDay",
  "cohortMonth",
  "monthlyCents",
  "activeSpans",
  "awaitingSpans",
  "overdueSpans",
  "lostSpans",
  "canceledSpans",
  "churnedSpans",
  "retainedMask",
  "overdueAnnouncedFrom",
  "lostAnnouncedFrom",
] as const;
type SummaryKey = (typeof SUMMARY_KEYS)[number];
const allColumns = getTableColumns(subscriptions);

/** A subscription's own columns: what the console sent or was told, not its summary (summaries.ts). */
export const subscriptionColumns = Object.fromEntries(
  Object.entries(allColumns).filter(([key]) => !(SUMMARY_KEYS as readonly string[]).includes(key)),
) as Omit<typeof allColumns, SummaryKey>;
export type SubscriptionRow = Omit<typeof subscriptions.$inferSelect, SummaryKey>;

export type SubscriptionCharge = ChargeFacts & {
  gatewayTransactionId: string;
  /** The ledger row once the gateway confirmed the transaction; null while it has not. */
  ledgerId: string | null;
  identifier: string | null;
  amountCents: number | null;
  currency: string | null;
  /** A notified status waiting for the gateway's confirmation. */
  pendingStatus: string | null;
  /** The outcome last announced to destinations ("paid", "failed"), for a renewal. */
  announced: string | null;
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
  return (await rulesOf(await getDb(), [accountId])).get(accountId)!;
}

/** The charges of some subscriptions of one account, with their ledger rows (in a transaction, when given). */
export async function chargesOf(accountId: string, ids: string[], tx?: Tx): Promise<Map<string, SubscriptionCharge[]>> {
  const byId = new Map<string, SubscriptionCharge[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const db = tx ?? (await getDb());
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
      announced: subscriptionCharges.announced,
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
      announced: row.announced,
      amountCents: row.amountCents,
      currency: row.currency,
    });
  }
  return byId;
}

/**
 * What the rules read of a subscription (its charges in order), and its start: as recorded, else
 * its first confirmed charge's due time; null when neither is known.
 */
export function factsOf(
  subscription: SubscriptionRow,
  charges: readonly SubscriptionCharge[],
): { facts: Omit<SubscriptionFacts, "charges"> & { charges: SubscriptionCharge[] }; startedAt: Date | null } {
  const ordered = chargesInOrder(charges);
  return {
    facts: {
      gatewayStatus: subscription.gatewayStatus,
      gatewayStatusAt: subscription.gatewayRecordAt,
      periodicity: readPeriodicity(subscription.periodicityType, subscription.periodicity),
      charges: ordered,
    },
    startedAt: subscription.startedAt ?? ordered.find((charge) => charge.dueAt)?.dueAt ?? null,
  };
}

/** One subscription as the console shows it, at `now`. */
export function viewOf(subscription: SubscriptionRow, charges: SubscriptionCharge[], now: Date, rules: StateRules): SubscriptionView {
  const { facts, startedAt } = factsOf(subscription, charges);
  const { periodicity, charges: ordered } = facts;
  const state = deriveState(facts, now, rules);
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
    startedAt,
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

/** The rules of several accounts, in a transaction when given (the defaults for an account that set none). */
export async function rulesOf(tx: Tx | Database, accountIds: string[]): Promise<Map<string, StateRules>> {
  const rows = await tx.select().from(subscriptionSettings).where(inArray(subscriptionSettings.accountId, accountIds));
  const rules = new Map<string, StateRules>(accountIds.map((id) => [id, DEFAULT_RULES]));
  for (const row of rows) rules.set(row.accountId, { graceDays: row.graceDays, lostAfterPeriods: row.lostAfterPeriods });
  return rules;
}

/** A subscription as the figures' pure reference reads it (lib/subscriptions/figures.ts). */
export function figureInputOf(view: SubscriptionView): SubscriptionFigureInput {
  return {
    startedAt: view.startedAt,
    amountCents: view.subscription.amountCents,
    periodicity: view.periodicity,
    charges: view.charges,
    gatewayStatus: view.subscription.gatewayStatus,
    gatewayStatusAt: view.subscription.gatewayRecordAt,
  };
}
