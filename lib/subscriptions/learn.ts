import "server-only";
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { toCents } from "@/lib/br/money";
import { getDb, type Tx } from "@/lib/db/client";
import { subscriptionCharges, subscriptions } from "@/lib/db/schema";
import type { LedgerRow } from "@/lib/ledger/queries";
import { clip, isRecord, type PaymentNotification } from "@/lib/gateway/notifications";
import { notificationOrigin } from "@/lib/gateway/origin";
import { parseGatewayTime } from "@/lib/gateway/time";
import { readPeriodicity } from "./periods";

/**
 * How the console learns its subscriptions: from what it sent when it created one, and from every
 * payment notification carrying a `subscription` object (a renewal, or a first charge). The
 * object's shape is not shown by the interface, so it is kept exactly as received and read
 * defensively; nothing here writes the ledger: a charge is linked by its gateway transaction id,
 * and its ledger row (once the gateway confirmed it) is found by that id when read.
 */

type Json = Record<string, unknown>;
type SubscriptionRow = typeof subscriptions.$inferSelect;
type Keys = { gatewayId: string | null; identifier: string | null };
/** What a source knows of the subscription; each fills only what the row still lacks, unless the console sent it. */
type Facts = Partial<
  Pick<
    SubscriptionRow,
    | "paymentMethod"
    | "amountCents"
    | "periodicityType"
    | "periodicity"
    | "firstChargeIn"
    | "clientName"
    | "clientEmail"
    | "clientDocument"
    | "productId"
    | "productName"
    | "startedAt"
  >
>;

const text = (value: unknown): string | null => (typeof value === "number" && Number.isFinite(value) ? String(value) : clip(value));
const wholeNumber = (value: unknown): number | null => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number >= 0 ? number : null;
};
const amountCents = (value: unknown): number | null => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number) || number < 0) return null;
  const cents = toCents(number);
  return Number.isSafeInteger(cents) ? cents : null;
};

/** The notification's `subscription` object, when it carries one. */
export function subscriptionObjectOf(payload: Json): Json | null {
  return isRecord(payload.subscription) ? payload.subscription : null;
}

/** The keys a subscription object names it by: the gateway's id (`id`, or `subscriptionId`) and the caller's `identifier`. */
export function subscriptionKeys(object: Json): Keys {
  return { gatewayId: text(object.id) ?? text(object.subscriptionId), identifier: text(object.identifier) };
}

/** The row these keys name, locked: by the gateway's id first; by the identifier when that row names no other gateway id. */
async function findRow(tx: Tx, accountId: string, keys: Keys): Promise<{ row: SubscriptionRow | null; identifierTaken: boolean }> {
  const match: SQL[] = [];
  if (keys.gatewayId) match.push(eq(subscriptions.gatewaySubscriptionId, keys.gatewayId));
  if (keys.identifier) match.push(eq(subscriptions.identifier, keys.identifier));
  const rows = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.accountId, accountId), or(...match)))
    .orderBy(subscriptions.id)
    .for("update");
  const byGatewayId = keys.gatewayId ? rows.find((row) => row.gatewaySubscriptionId === keys.gatewayId) : undefined;
  const byIdentifier = keys.identifier ? rows.find((row) => row.identifier === keys.identifier) : undefined;
  const sameIdentifier =
    byIdentifier && (!keys.gatewayId || !byIdentifier.gatewaySubscriptionId || byIdentifier.gatewaySubscriptionId === keys.gatewayId)
      ? byIdentifier
      : undefined;
  const row = byGatewayId ?? sameIdentifier ?? null;
  return { row, identifierTaken: byIdentifier !== undefined && byIdentifier !== row };
}

/**
 * The row of the subscription these keys name, made when there is none (with `source`), and its
 * keys completed. Several appliers may meet a new subscription at once: the loser of the insert
 * reads the winner's row.
 */
async function rowFor(tx: Tx, accountId: string, keys: Keys, source: SubscriptionRow["source"]): Promise<SubscriptionRow> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { row, identifierTaken } = await findRow(tx, accountId, keys);
    const identifier = identifierTaken ? null : keys.identifier;
    if (row) {
      const gatewaySubscriptionId = row.gatewaySubscriptionId ?? keys.gatewayId;
      const completed = { gatewaySubscriptionId, identifier: row.identifier ?? identifier };
      if (completed.gatewaySubscriptionId === row.gatewaySubscriptionId && completed.identifier === row.identifier) return row;
      const [updated] = await tx.update(subscriptions).set(completed).where(eq(subscriptions.id, row.id)).returning();
      return updated;
    }
    const [inserted] = await tx
      .insert(subscriptions)
      .values({ accountId, gatewaySubscriptionId: keys.gatewayId, identifier, source })
      .onConflictDoNothing()
      .returning();
    if (inserted) return inserted;
  }
  throw new Error("subscription row could not be made or found");
}

/** Fills what the row lacks; with `override`, what the console sent replaces what a notification said. */
function filled(row: SubscriptionRow, facts: Facts, override: boolean): Facts {
  const set: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(facts) as [keyof Facts, unknown][]) {
    if (value === null || value === undefined) continue;
    if (override || row[key] === null) set[key] = value;
  }
  return set as Facts;
}

export type NotifiedItem = { accountId: string; n: PaymentNotification; payload: Json; receivedAt: Date };

/**
 * Learns subscriptions from a batch of payment notifications, in the applier's transaction: each
 * one carrying a `subscription` object makes or completes its subscription's row (the object kept
 * as received, the latest by the notification's own time) and links its transaction to it. Any
 * order works: a renewal heard before the first charge, or before the console's creation answer,
 * makes the row that the others then complete.
 */
export async function learnSubscriptionsIn(tx: Tx, items: readonly NotifiedItem[]): Promise<void> {
  for (const { accountId, n, payload, receivedAt } of items) {
    const object = subscriptionObjectOf(payload);
    if (!object) continue;
    const keys = subscriptionKeys(object);
    if (!keys.gatewayId && !keys.identifier) continue;
    const row = await rowFor(tx, accountId, keys, "notification");
    const chargeNumber = wholeNumber(object.chargeNumber);
    const at = n.reportedAt ?? receivedAt;
    const periodicity = readPeriodicity(object.periodicityType, object.periodicity);
    const facts: Facts = {
      paymentMethod: text(object.paymentMethod),
      amountCents: amountCents(object.amount),
      periodicityType: periodicity?.type ?? null,
      periodicity: periodicity?.every ?? null,
      clientName: n.client.name,
      clientEmail: n.client.email,
      clientDocument: n.client.document,
      productName: notificationOrigin(payload).productName,
      startedAt: parseGatewayTime(object.createdAt) ?? (chargeNumber === 1 ? parseGatewayTime(n.transaction.createdAt) : null),
    };
    const newer = !row.gatewayRecordAt || at >= row.gatewayRecordAt;
    await tx
      .update(subscriptions)
      .set({
        ...filled(row, facts, false),
        ...(newer ? { gatewayRecord: object, gatewayStatus: text(object.status), gatewayRecordAt: at } : {}),
        updatedAt: new Date(),
      })
      .where(eq(subscriptions.id, row.id));
    await linkCharge(tx, {
      accountId,
      subscriptionId: row.id,
      gatewayTransactionId: n.gatewayTransactionId,
      identifier: n.identifier,
      chargeNumber,
    });
  }
}

async function linkCharge(
  tx: Tx,
  link: { accountId: string; subscriptionId: string; gatewayTransactionId: string; identifier: string | null; chargeNumber: number | null },
): Promise<void> {
  await tx
    .insert(subscriptionCharges)
    .values(link)
    .onConflictDoUpdate({
      target: [subscriptionCharges.accountId, subscriptionCharges.gatewayTransactionId],
      set: {
        chargeNumber: sql`coalesce(${subscriptionCharges.chargeNumber}, excluded.charge_number)`,
        identifier: sql`coalesce(${subscriptionCharges.identifier}, excluded.identifier)`,
      },
    });
}

/**
 * Records a subscription the console created: what it sent (the ledger row of its creation, a
 * *_subscription kind) and, when the creation answer named them, the gateway's subscription id
 * (`subscriptionId`) and the first charge's transaction. Only once the gateway answered 2xx: a
 * rejected or unknown creation is no subscription (an unknown one that did happen is learned
 * from its notifications). What the console sent replaces what a notification said before.
 */
export async function recordCreatedSubscription(row: LedgerRow, firstTransactionId: string | null): Promise<void> {
  if (!row.kind.endsWith("_subscription") || row.submission !== "SUBMITTED") return;
  const request = row.request ?? {};
  const recurrence = isRecord(request.subscription) ? request.subscription : {};
  const product = isRecord(request.product) ? request.product : {};
  const response = row.response ?? {};
  const periodicity = readPeriodicity(recurrence.periodicityType, recurrence.periodicity);
  const facts: Facts = {
    paymentMethod: row.paymentMethod,
    amountCents: row.amountCents,
    periodicityType: periodicity?.type ?? null,
    periodicity: periodicity?.every ?? null,
    firstChargeIn: wholeNumber(recurrence.firstChargeIn),
    clientName: row.clientName,
    clientEmail: row.clientEmail,
    clientDocument: row.clientDocument,
    productId: text(product.id),
    productName: text(product.name),
    startedAt: row.createdAt,
  };
  const db = await getDb();
  await db.transaction(async (tx) => {
    const subscription = await rowFor(
      tx,
      row.accountId,
      { gatewayId: text(response.subscriptionId), identifier: row.identifier },
      "console",
    );
    await tx
      .update(subscriptions)
      .set({ ...filled(subscription, facts, true), currency: row.currency, ledgerId: row.id, updatedAt: new Date() })
      .where(eq(subscriptions.id, subscription.id));
    if (firstTransactionId)
      await linkCharge(tx, {
        accountId: row.accountId,
        subscriptionId: subscription.id,
        gatewayTransactionId: firstTransactionId,
        identifier: null,
        chargeNumber: null,
      });
  });
}
