import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import type { gatewayNotifications } from "@/lib/db/schema";
import { isKnownWebhookEvent, WEBHOOK_EVENTS } from "@/lib/gateway/schemas/webhooks";
import type { DatabaseCapabilities } from "@/lib/db/capabilities";
import { emitLocally, FEED_CHANNEL } from "./bus";
import type { FeedNotification } from "./types";

type FeedFields = Pick<
  typeof gatewayNotifications.$inferSelect,
  | "id"
  | "accountId"
  | "feedSeq"
  | "kind"
  | "event"
  | "gatewayTransactionId"
  | "identifier"
  | "status"
  | "paymentMethod"
  | "amountCents"
  | "ledgerId"
  | "applyState"
  | "confirmation"
  | "deliveries"
  | "firstReceivedAt"
  | "lastReceivedAt"
>;

/** The columns a feed event is made of, for statements that return them raw (`returning …`). */
export const FEED_COLUMNS = [
  "id",
  "account_id",
  "feed_seq",
  "kind",
  "event",
  "gateway_transaction_id",
  "identifier",
  "status",
  "payment_method",
  "amount_cents",
  "ledger_id",
  "apply_state",
  "confirmation",
  "deliveries",
  "first_received_at",
  "last_received_at",
] as const;

export function toFeedNotification(row: FeedFields, ledgerChanged = false): FeedNotification {
  return {
    id: row.id,
    accountId: row.accountId,
    seq: Number(row.feedSeq),
    kind: row.kind,
    event: row.event,
    known: row.kind === "payment" && row.event !== null && isKnownWebhookEvent(row.event),
    gatewayTransactionId: row.gatewayTransactionId,
    identifier: row.identifier,
    status: row.status,
    paymentMethod: row.paymentMethod,
    amountCents: row.amountCents === null ? null : Number(row.amountCents),
    ledgerId: row.ledgerId,
    ledgerChanged,
    applied: row.applyState === "applied",
    confirmation: row.confirmation,
    deliveries: row.deliveries,
    firstReceivedAt: row.firstReceivedAt.toISOString(),
    lastReceivedAt: row.lastReceivedAt.toISOString(),
  };
}

/**
 * Inside a transaction: where the database notifies every process, they hear it at commit;
 * otherwise (`emitsLocally`) the caller emits the signals after the commit (emitAfterCommit).
 */
export async function notifyFeed(tx: Tx, signals: FeedNotification[], database: DatabaseCapabilities): Promise<void> {
  if (!database.notifiesOtherProcesses || signals.length === 0) return;
  const payloads = signals.map((s) => sql`(${JSON.stringify(s)}::text)`);
  await tx.execute(sql`select pg_notify(${FEED_CHANNEL}, p) from (values ${sql.join(payloads, sql`, `)}) as t(p)`);
}

/** After the commit: the signals a database that does not notify other processes leaves to this one. */
export function emitAfterCommit(signals: FeedNotification[], database: DatabaseCapabilities): void {
  if (database.emitsLocally) for (const signal of signals) emitLocally(signal);
}

const isoUtc = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The same FeedNotification as toFeedNotification, written by Postgres for a row named `alias` with the table's
 * column names (a stored or applied delivery's signal, made inside the statement that wrote it);
 * `ledgerChanged` is an SQL expression.
 */
export function feedNotificationJsonSql(alias: string, ledgerChanged = "false"): SQL {
  return sql.raw(feedNotificationJsonText(alias, ledgerChanged));
}

/** feedNotificationJsonSql as plain SQL text, for statements sent to the driver directly. */
export function feedNotificationJsonText(alias: string, ledgerChanged = "false"): string {
  const known = WEBHOOK_EVENTS.map((name) => `'${name}'`).join(", ");
  return `json_build_object(
    'id', ${alias}.id, 'accountId', ${alias}.account_id, 'seq', ${alias}.feed_seq, 'kind', ${alias}.kind, 'event', ${alias}.event,
    'known', ${alias}.kind = 'payment' and coalesce(${alias}.event in (${known}), false),
    'gatewayTransactionId', ${alias}.gateway_transaction_id, 'identifier', ${alias}.identifier, 'status', ${alias}.status,
    'paymentMethod', ${alias}.payment_method, 'amountCents', ${alias}.amount_cents, 'ledgerId', ${alias}.ledger_id,
    'ledgerChanged', ${ledgerChanged}, 'applied', ${alias}.apply_state = 'applied', 'confirmation', ${alias}.confirmation,
    'deliveries', ${alias}.deliveries, 'firstReceivedAt', ${isoUtc(`${alias}.first_received_at`)},
    'lastReceivedAt', ${isoUtc(`${alias}.last_received_at`)})::text`;
}
