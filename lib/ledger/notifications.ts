import "server-only";
import { and, asc, eq, getTableColumns, inArray, isNull, or, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { toCents } from "@/lib/br/money";
import { databaseCapabilities } from "@/lib/db/capabilities";
import { getDb, type Tx } from "@/lib/db/client";
import { ledgerTransactions, gatewayNotifications } from "@/lib/db/schema";
import type { LedgerOutcome, WebhookConfirmation } from "@/lib/db/tables/notifications";
import type { FeedNotification } from "@/lib/feed/types";
import { emitAfterCommit, notifyFeed, toFeedNotification } from "@/lib/feed/signal";
import type { TransactionRecord } from "@/lib/gateway";
import { isRecord, readPaymentNotification, redactPayload, type PaymentNotification } from "@/lib/gateway/notifications";
import { notificationOrigin, type SaleOrigin } from "@/lib/gateway/origin";
import { parseGatewayTime } from "@/lib/gateway/time";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { stateOf, transactionMachine } from "@/lib/status/machine";
import { balanceFactsFromRecord, scheduleReleaseLookups, syncSaleMovements } from "./movements";
import type { LedgerRow } from "./queries";

/**
 * What payment notifications do to the ledger: each recorded on its row through the status
 * machine (the webhook applier's batches), and the rows made from the gateway's record once its
 * lookup confirms notifications about a transaction the ledger did not have.
 */

type LedgerState = {
  row: Partial<LedgerRow> & { id: string; accountId: string; identifier: string; kind: LedgerRow["kind"] };
  /** The row as read, to write back only what the batch changed. */
  read: Partial<LedgerRow>;
};
export type ApplyOutcome = { ledgerId: string | null; outcome: LedgerOutcome; confirmation: WebhookConfirmation | null };

/**
 * Records each notification on its ledger row through the status machine. A status that would
 * move money is parked as "confirming" until the gateway's lookup confirms it; out-of-order or
 * contradicting deliveries leave the status as it is. Missing descriptive fields are filled
 * either way. A notification about a transaction the ledger does not have creates nothing: it
 * waits in the inbox ("confirming", no ledger row) until the gateway's own lookup confirms the
 * transaction (`settleUnconfirmedNotifications` below), since the ledger holds only what the console
 * created and what the gateway confirmed.
 */
export async function applyNotificationsToLedger(
  tx: Tx,
  items: { accountId: string; n: PaymentNotification; payload: Record<string, unknown>; receivedAt: Date }[],
): Promise<ApplyOutcome[]> {
  // Key by key, so each lookup is one probe of a unique index whatever the planner knows of the
  // table: an OR of two lists per account was planned as a scan of the account's whole ledger
  // while a new table's statistics were still empty (`npm run bench:webhooks`).
  const keys = items.map(({ accountId, n }) => ({ a: accountId, g: n.gatewayTransactionId, i: n.identifier }));
  const existing = await tx
    .select(LEDGER_READ)
    .from(ledgerTransactions)
    .where(
      sql`${ledgerTransactions.id} = any(array(
        select l.id from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(a text, g text, i text)
        cross join lateral (
          select id from ledger_transactions where account_id = k.a and gateway_transaction_id = k.g
          union all
          select id from ledger_transactions where account_id = k.a and identifier in (k.g, k.i)
        ) l))`,
    )
    .orderBy(asc(ledgerTransactions.id))
    .for("update");

  const states: LedgerState[] = existing.map((row) => ({ row, read: { ...row } }));
  // The batch's rows by (account, gateway id) and (account, identifier): both are unique per
  // account, so each key names at most one row (a scan of every row per notification was quadratic).
  const key = (accountId: string, value: string) => `${accountId}\u0000${value}`;
  const byGatewayId = new Map<string, LedgerState>();
  const byIdentifier = new Map<string, LedgerState>();
  const remember = (state: LedgerState) => {
    const { accountId, gatewayTransactionId, identifier } = state.row;
    if (gatewayTransactionId) byGatewayId.set(key(accountId, gatewayTransactionId), state);
    byIdentifier.set(key(accountId, identifier), state);
  };
  states.forEach(remember);
  const outcomes = items.map(({ accountId, n, payload, receivedAt }): ApplyOutcome => {
    // The gateway's id is authoritative; a row with the same identifier but another gateway id is another transaction.
    const sameIdentifier = n.identifier ? byIdentifier.get(key(accountId, n.identifier)) : undefined;
    const state =
      byGatewayId.get(key(accountId, n.gatewayTransactionId)) ?? (sameIdentifier?.row.gatewayTransactionId ? undefined : sameIdentifier);
    const effectiveAt = n.reportedAt ?? receivedAt;
    if (!state) return { ledgerId: null, outcome: "confirming", confirmation: "confirming" };
    const row = state.row;
    const change = ledgerStatusChange(
      {
        kind: row.kind,
        status: row.status ?? null,
        statusAt: row.statusAt ?? null,
        paidAt: row.paidAt ?? null,
        pendingStatus: row.pendingStatus ?? null,
      },
      { status: n.status, source: "webhook", at: effectiveAt, paidAt: n.paidAt },
    );
    const filled: Partial<LedgerRow> = {
      gatewayTransactionId: row.gatewayTransactionId ?? n.gatewayTransactionId,
      paymentMethod: row.paymentMethod ?? n.paymentMethod,
      amountCents: row.amountCents ?? n.amountCents,
      feeCents: row.feeCents ?? n.feeCents,
      clientName: row.clientName ?? n.client.name,
      clientEmail: row.clientEmail ?? n.client.email,
      clientDocument: row.clientDocument ?? n.client.document,
      ...originFilled(row, payload),
    };
    // The row's time of change moves with what it says (status, facts filled), not with a hint parked for
    // confirmation: such a row then changes no indexed column, and Postgres updates it in place (migration 0016).
    const changesContent =
      change.outcome === "updated" || Object.entries(filled).some(([field, value]) => !sameValue(value, row[field as keyof LedgerRow]));
    Object.assign(row, filled, { lastWebhookStatus: n.status, lastWebhookAt: receivedAt }, change.set);
    if (changesContent) row.updatedAt = receivedAt;
    if (change.outcome === "updated" || change.outcome === "unchanged")
      row.gatewayRecord = redactPayload(n.transaction) as Record<string, unknown>;
    remember(state);
    const outcome: LedgerOutcome = change.outcome === "unchanged" ? "updated" : change.outcome;
    return { ledgerId: row.id, outcome, confirmation: change.outcome === "confirming" ? "confirming" : null };
  });

  // Changed rows go as one JSON parameter (a batch of typed parameters cost the worker and
  // Postgres more than the writes themselves), each with only the columns it changes: a parked
  // notification changes four, and the stored gateway record is neither read nor sent back.
  const updates = states.map(changedColumns).filter((changes) => changes !== null);
  if (updates.length > 0) {
    await tx.execute(sql`
      update ledger_transactions as l set ${sql.raw(LEDGER_UPDATE_SET)}
      from (select e->>'id' as id, e as c from jsonb_array_elements(${JSON.stringify(updates)}::jsonb) as e) as v
      where l.id = v.id`);
  }
  return outcomes;
}

/** The sale's origin facts the row still lacks, from the notification (sales reports): filled once known, never cleared. */
function originFilled(row: LedgerState["row"], payload: Record<string, unknown>) {
  if (row.utmSource && row.utmMedium && row.utmCampaign && row.productName && row.offerCode) return {};
  const origin = notificationOrigin(payload);
  return {
    utmSource: row.utmSource ?? origin.utmSource,
    utmMedium: row.utmMedium ?? origin.utmMedium,
    utmCampaign: row.utmCampaign ?? origin.utmCampaign,
    productName: row.productName ?? origin.productName,
    offerCode: row.offerCode ?? origin.offerCode,
  };
}

/** The ledger columns the applier updates (by their keys in the table). */
const UPDATED_KEYS = [
  "gatewayTransactionId",
  "paymentMethod",
  "amountCents",
  "feeCents",
  "clientName",
  "clientEmail",
  "clientDocument",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "productName",
  "offerCode",
  "paidAt",
  "status",
  "statusSource",
  "statusAt",
  "pendingStatus",
  "pendingStatusAt",
  "lastWebhookStatus",
  "lastWebhookAt",
  "gatewayRecord",
  "updatedAt",
] as const satisfies readonly (keyof LedgerRow)[];
const ledgerColumns = getTableColumns(ledgerTransactions);
/**
 * The SET list of an update of `ledger_transactions as l` from JSON records `v.c` (one per row, by
 * column name): each of `keys` from the record's key of that name when present, else as it is; a
 * JSON null is SQL null. One statement for a batch of rows, whatever columns each one changes.
 */
export function ledgerUpdateSet(keys: readonly (keyof LedgerRow)[]): string {
  return keys
    .map((key) => {
      const { name } = ledgerColumns[key];
      const type = ledgerColumns[key].getSQLType();
      const value =
        type === "jsonb" ? `nullif(v.c->'${name}', 'null'::jsonb)` : type === "text" ? `v.c->>'${name}'` : `(v.c->>'${name}')::${type}`;
      return `${name} = case when v.c ? '${name}' then ${value} else l.${name} end`;
    })
    .join(", ");
}
/** A row's changes as ledgerUpdateSet reads them: by column name, with its id. */
export function ledgerUpdateRecord(id: string, changes: Partial<LedgerRow>): Record<string, unknown> {
  const record: Record<string, unknown> = { id };
  for (const [key, value] of Object.entries(changes)) record[ledgerColumns[key as keyof LedgerRow].name] = value ?? null;
  return record;
}
const LEDGER_UPDATE_SET = ledgerUpdateSet(UPDATED_KEYS);
/**
 * What the applier reads of a row: what the notification may fill or move and what the status
 * machine decides on. The JSON it only ever replaces (the latest gateway record) or never touches
 * (the request and answer stored at creation) stays in the table.
 */
const READ_KEYS = [
  "id",
  ...UPDATED_KEYS.filter((key) => key !== "gatewayRecord"),
  "accountId",
  "identifier",
  "kind",
] as const satisfies readonly (keyof LedgerRow)[];
const LEDGER_READ = Object.fromEntries(READ_KEYS.map((key) => [key, ledgerColumns[key]])) as {
  [Key in (typeof READ_KEYS)[number]]: (typeof ledgerColumns)[Key];
};

const sameValue = (a: unknown, b: unknown) =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : (a ?? null) === (b ?? null);

/** The columns the batch changed in a row, by column name with its id, or null when it changed none. */
function changedColumns({ row, read }: LedgerState): Record<string, unknown> | null {
  const changes: Record<string, unknown> = { id: row.id };
  let changed = false;
  for (const key of UPDATED_KEYS) {
    if (sameValue(row[key], read[key])) continue;
    changes[ledgerColumns[key].name] = row[key] ?? null;
    changed = true;
  }
  return changed ? changes : null;
}

type NotificationRow = typeof gatewayNotifications.$inferSelect;

/**
 * Whether the gateway's record could follow from what a notification said: the same transaction
 * (id, and identifier when the notification names one), its status the notified one or a state
 * the status machine lets it move to (a paid notice, the gateway now saying refunded).
 */
function recordAgrees(
  notification: Pick<NotificationRow, "gatewayTransactionId" | "identifier" | "status">,
  record: TransactionRecord,
): boolean {
  if (record.id !== notification.gatewayTransactionId) return false;
  if (notification.identifier && record.clientIdentifier && notification.identifier !== record.clientIdentifier) return false;
  const notified = stateOf(transactionMachine, notification.status);
  const actual = stateOf(transactionMachine, record.status);
  if (notified === null || actual === null) return false;
  return notified === actual || transactionMachine.moves[notified].includes(actual);
}

/** The notifications of one transaction still waiting for the gateway (no ledger row, confirming). */
const waitingFor = (accountId: string, gatewayTransactionId: string) =>
  and(
    eq(gatewayNotifications.accountId, accountId),
    eq(gatewayNotifications.gatewayTransactionId, gatewayTransactionId),
    eq(gatewayNotifications.kind, "payment"),
    isNull(gatewayNotifications.ledgerId),
    eq(gatewayNotifications.confirmation, "confirming"),
  );

export type NotificationSettlement = {
  /** "created": a ledger row made from the gateway's record; "attached": the ledger already had it; "contradicted": no row. */
  outcome: "created" | "attached" | "contradicted";
  ledgerId: string | null;
  notifications: number;
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
      .from(gatewayNotifications)
      .where(waitingFor(accountId, gatewayTransactionId))
      .orderBy(asc(gatewayNotifications.firstReceivedAt), asc(gatewayNotifications.feedSeq))
      .for("update");
    const agreeing = record ? waiting.filter((notification) => recordAgrees(notification, record)) : [];
    const contradicted = waiting.filter((notification) => !agreeing.includes(notification));

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
      notifications: NotificationRow[],
      confirmation: "confirmed" | "contradicted",
      ledgerOutcome: "created" | "updated" | "refused",
    ) =>
      notifications.length === 0
        ? []
        : tx
            .update(gatewayNotifications)
            .set({
              confirmation,
              ledgerOutcome,
              ledgerId,
              feedSeq: sql`nextval(pg_get_serial_sequence('gateway_notifications', 'feed_seq'))`,
            })
            .where(
              inArray(
                gatewayNotifications.id,
                notifications.map((e) => e.id),
              ),
            )
            .returning();
    const confirmedRows = await mark(agreeing, "confirmed", outcome === "created" ? "created" : "updated");
    const contradictedRows = await mark(contradicted, "contradicted", "refused");
    const signals: FeedNotification[] = [
      ...confirmedRows.map((e) => toFeedNotification(e, true)),
      ...contradictedRows.map((e) => toFeedNotification(e, false)),
    ];
    await notifyFeed(tx, signals, database);
    return { settlement: { outcome, ledgerId, notifications: waiting.length }, signals, contradicted };
  });
  emitAfterCommit(signals, database);
  for (const notification of contradicted) {
    await writeAudit({
      accountId,
      action: "webhook.contradicted",
      target: notification.id,
      details: {
        ledgerId: settlement.ledgerId,
        notified: notification.status,
        gateway: record?.status ?? null,
        event: notification.event,
        unknownTransaction: true,
      },
    });
  }
  if (settlement.outcome === "created") {
    await writeAudit({
      accountId,
      action: "ledger.confirmed_from_notification",
      target: settlement.ledgerId,
      details: { gatewayTransactionId, status: record?.status ?? null, notifications: settlement.notifications },
    });
  }
  return settlement;
}

/** The gateway never answered within the give-up time: the notifications stay out of the ledger, and a person is told. */
export async function giveUpUnconfirmedNotifications(accountId: string, gatewayTransactionId: string, attempts: number): Promise<void> {
  const db = await getDb();
  const [waiting] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(gatewayNotifications)
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

async function insertConfirmedRow(tx: Tx, accountId: string, record: TransactionRecord, agreeing: NotificationRow[]): Promise<string> {
  const notes = [...agreeing]
    .reverse()
    .map((notification) => (isRecord(notification.payload) ? readPaymentNotification(notification.payload) : null))
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
  const origins = [...agreeing]
    .reverse()
    .flatMap((notification) => (isRecord(notification.payload) ? [notificationOrigin(notification.payload)] : []));
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
      ...balanceFactsFromRecord(
        { kind: "external", availableAt: null, reversedAt: null },
        { ...record, status: change.set.status ?? record.status },
        latest.lastReceivedAt,
        now,
      ),
      createdAt: parseGatewayTime(record.createdAt) ?? fill((n) => parseGatewayTime(n.transaction.createdAt)) ?? now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  // A row made meanwhile by another path (a lookup added it): the check is tried again and attaches to it.
  if (!inserted) throw new Error("ledger row for a confirmed notification created concurrently");
  await syncSaleMovements(tx, [inserted.id]);
  await scheduleReleaseLookups(tx, { availableAt: null, lastLookupAt: now }, inserted, now);
  return inserted.id;
}
