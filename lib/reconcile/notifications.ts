import "server-only";
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { toCents } from "@/lib/br/money";
import { databaseCapabilities } from "@/lib/db/capabilities";
import { getDb, type Tx } from "@/lib/db/client";
import { ledgerTransactions, webhookEvents } from "@/lib/db/schema";
import type { FeedEvent } from "@/lib/feed/types";
import type { TransactionRecord } from "@/lib/gateway";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { stateOf, transactionMachine } from "@/lib/status/machine";
import { emitAfterCommit, notifyFeed, toFeedEvent } from "@/lib/feed/signal";
import { isRecord, readPaymentNotification, type PaymentNotification } from "@/lib/webhooks/payload";
import { parseGatewayTime } from "@/lib/gateway/time";
import { notificationOrigin, type SaleOrigin } from "@/lib/gateway/origin";

type EventRow = typeof webhookEvents.$inferSelect;

/**
 * Whether the gateway's record could follow from what a notification said: the same transaction
 * (id, and identifier when the notification names one), its status the notified one or a state
 * the status machine lets it move to (a paid notice, the gateway now saying refunded).
 */
function recordAgrees(event: Pick<EventRow, "gatewayTransactionId" | "identifier" | "status">, record: TransactionRecord): boolean {
  if (record.id !== event.gatewayTransactionId) return false;
  if (event.identifier && record.clientIdentifier && event.identifier !== record.clientIdentifier) return false;
  const notified = stateOf(transactionMachine, event.status);
  const actual = stateOf(transactionMachine, record.status);
  if (notified === null || actual === null) return false;
  return notified === actual || transactionMachine.moves[notified].includes(actual);
}

/** The notifications of one transaction still waiting for the gateway (no ledger row, confirming). */
const waitingFor = (accountId: string, gatewayTransactionId: string) =>
  and(
    eq(webhookEvents.accountId, accountId),
    eq(webhookEvents.gatewayTransactionId, gatewayTransactionId),
    eq(webhookEvents.kind, "payment"),
    isNull(webhookEvents.ledgerId),
    eq(webhookEvents.confirmation, "confirming"),
  );

export type NotificationSettlement = {
  /** "created": a ledger row made from the gateway's record; "attached": the ledger already had it; "contradicted": no row. */
  outcome: "created" | "attached" | "contradicted";
  ledgerId: string | null;
  events: number;
};

/**
 * Settles the notifications waiting on a transaction the ledger did not have, with the gateway's
 * answer (`null`: it does not know the transaction). The ledger row is made from the gateway's
 * record, its status through the status machine as a lookup; the notifications only fill what the
 * record lacks (client, fee). Notifications the record does not agree with are contradicted and
 * create nothing. All in one transaction with the row, so the outbox row its insert writes is
 * published with the notifications already linked to it.
 */
export async function settleUnconfirmedNotifications(
  accountId: string,
  gatewayTransactionId: string,
  record: TransactionRecord | null,
): Promise<NotificationSettlement> {
  const db = await getDb();
  const database = await databaseCapabilities();
  const { settlement, signals, contradicted } = await db.transaction(async (tx) => {
    const waiting = await tx
      .select()
      .from(webhookEvents)
      .where(waitingFor(accountId, gatewayTransactionId))
      .orderBy(asc(webhookEvents.firstReceivedAt), asc(webhookEvents.feedSeq))
      .for("update");
    const agreeing = record ? waiting.filter((event) => recordAgrees(event, record)) : [];
    const contradicted = waiting.filter((event) => !agreeing.includes(event));

    let ledgerId: string | null = null;
    let outcome: NotificationSettlement["outcome"] = "contradicted";
    if (record) {
      const existing = await existingRow(tx, accountId, record);
      if (existing) {
        ledgerId = existing;
        outcome = "attached";
      } else if (agreeing.length > 0) {
        ledgerId = await insertConfirmedRow(tx, accountId, record, agreeing);
        outcome = "created";
      }
    }

    const mark = async (
      events: EventRow[],
      confirmation: "confirmed" | "contradicted",
      ledgerOutcome: "created" | "updated" | "refused",
    ) =>
      events.length === 0
        ? []
        : tx
            .update(webhookEvents)
            .set({ confirmation, ledgerOutcome, ledgerId, feedSeq: sql`nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))` })
            .where(
              inArray(
                webhookEvents.id,
                events.map((e) => e.id),
              ),
            )
            .returning();
    const confirmedRows = await mark(agreeing, "confirmed", outcome === "created" ? "created" : "updated");
    const contradictedRows = await mark(contradicted, "contradicted", "refused");
    const signals: FeedEvent[] = [...confirmedRows.map((e) => toFeedEvent(e, true)), ...contradictedRows.map((e) => toFeedEvent(e, false))];
    await notifyFeed(tx, signals, database);
    return { settlement: { outcome, ledgerId, events: waiting.length }, signals, contradicted };
  });
  emitAfterCommit(signals, database);
  for (const event of contradicted) {
    await writeAudit({
      accountId,
      action: "webhook.contradicted",
      target: event.id,
      details: {
        ledgerId: settlement.ledgerId,
        notified: event.status,
        gateway: record?.status ?? null,
        event: event.event,
        unknownTransaction: true,
      },
    });
  }
  if (settlement.outcome === "created") {
    await writeAudit({
      accountId,
      action: "ledger.confirmed_from_notification",
      target: settlement.ledgerId,
      details: { gatewayTransactionId, status: record?.status ?? null, notifications: settlement.events },
    });
  }
  return settlement;
}

/** The gateway never answered within the give-up time: the notifications stay out of the ledger, and a person is told. */
export async function giveUpUnconfirmedNotifications(accountId: string, gatewayTransactionId: string, attempts: number): Promise<void> {
  const db = await getDb();
  const [waiting] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .where(waitingFor(accountId, gatewayTransactionId));
  await writeAudit({
    accountId,
    action: "webhook.needs_person",
    target: gatewayTransactionId,
    details: { attempts, notifications: Number(waiting?.n ?? 0) },
  });
}

/** The row that already holds this transaction: by the gateway's id, or the console's own submission with its identifier and no id yet. */
async function existingRow(tx: Tx, accountId: string, record: TransactionRecord): Promise<string | null> {
  const [row] = await tx
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(
      and(
        eq(ledgerTransactions.accountId, accountId),
        or(
          eq(ledgerTransactions.gatewayTransactionId, record.id),
          and(eq(ledgerTransactions.identifier, record.clientIdentifier), isNull(ledgerTransactions.gatewayTransactionId)),
        ),
      ),
    )
    .orderBy(sql`(${ledgerTransactions.gatewayTransactionId} = ${record.id}) desc nulls last`)
    .limit(1)
    .for("update");
  return row?.id ?? null;
}

async function insertConfirmedRow(tx: Tx, accountId: string, record: TransactionRecord, agreeing: EventRow[]): Promise<string> {
  const notes = [...agreeing]
    .reverse()
    .map((event) => (isRecord(event.payload) ? readPaymentNotification(event.payload) : null))
    .filter((n): n is PaymentNotification => n !== null);
  const fill = <T>(pick: (n: PaymentNotification) => T | null | undefined): T | null => {
    for (const n of notes) {
      const value = pick(n);
      if (value !== null && value !== undefined) return value;
    }
    return null;
  };
  const latest = agreeing.at(-1)!;
  // Where the sale came from (a hosted checkout's UTM values, its product and offer), latest notification first.
  const origins = [...agreeing].reverse().flatMap((event) => (isRecord(event.payload) ? [notificationOrigin(event.payload)] : []));
  const origin = <K extends keyof SaleOrigin>(key: K): SaleOrigin[K] => origins.find((o) => o[key] !== null)?.[key] ?? null;
  const now = new Date();
  const payedAt = parseGatewayTime(record.payedAt);
  const change = ledgerStatusChange(
    { kind: "external", status: null, statusAt: null, paidAt: null, pendingStatus: null },
    { status: record.status, source: "lookup", at: now, paidAt: payedAt },
  );
  // The identifier the gateway holds, unless another row of this account already uses it.
  const [taken] = record.clientIdentifier
    ? await tx
        .select({ id: ledgerTransactions.id })
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.identifier, record.clientIdentifier)))
        .limit(1)
    : [{ id: "" }];
  const amount = Number.isFinite(record.amount) ? toCents(record.amount) : fill((n) => n.amountCents);
  const [inserted] = await tx
    .insert(ledgerTransactions)
    .values({
      accountId,
      kind: "external",
      origin: "webhook",
      identifier: taken ? record.id : record.clientIdentifier,
      gatewayTransactionId: record.id,
      ...change.set,
      paidAt: change.set.paidAt ?? payedAt,
      lastLookupStatus: record.status,
      lastLookupAt: now,
      lastWebhookStatus: latest.status,
      lastWebhookAt: latest.lastReceivedAt,
      paymentMethod: record.paymentMethod,
      amountCents: amount,
      feeCents: fill((n) => n.feeCents),
      currency: record.currency.slice(0, 10) || "BRL",
      clientName: record.pixMetadata?.payerName || fill((n) => n.client.name),
      clientEmail: fill((n) => n.client.email),
      clientDocument: record.pixMetadata?.payerDocument || fill((n) => n.client.document),
      utmSource: origin("utmSource"),
      utmMedium: origin("utmMedium"),
      utmCampaign: origin("utmCampaign"),
      productName: origin("productName"),
      offerCode: origin("offerCode"),
      gatewayRecord: record as Record<string, unknown>,
      createdAt: parseGatewayTime(record.createdAt) ?? fill((n) => parseGatewayTime(n.transaction.createdAt)) ?? now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: ledgerTransactions.id });
  // A row made meanwhile by another path (a lookup added it): the check is tried again and attaches to it.
  if (!inserted) throw new Error("ledger row for a confirmed notification created concurrently");
  return inserted.id;
}
