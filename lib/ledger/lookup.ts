import "server-only";
import { and, eq, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions as lt } from "@/lib/db/schema";
import { writeAudit } from "@/lib/audit/log";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type GatewayErrorKind } from "@/lib/gateway";
import { toCents } from "@/lib/br/money";
import type { TransactionRecord } from "@/lib/gateway";
import { balanceFactsFromRecord, scheduleReleaseLookups, syncSaleMovements } from "./movements";
import { applyLookup } from "./settle";
import { parseGatewayTime } from "@/lib/gateway/time";

/** The lookup "is not for frequent polling": one refresh per transaction per this many seconds. */
export const LOOKUP_COOLDOWN_SECONDS = 30;

type Actor = { id: string; email: string };
export type LookupFailure = { ok: false; reason: "gateway"; kind: GatewayErrorKind; status?: number; message?: string };

function failure(error: unknown): LookupFailure {
  if (isGatewayError(error)) {
    return { ok: false, reason: "gateway", kind: error.kind, status: error.status, message: error.gatewayMessage ?? undefined };
  }
  throw error;
}

export type RefreshResult =
  | { ok: true; status: string; lastWebhookStatus: string | null }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "too_soon"; waitSeconds: number }
  | LookupFailure;

/**
 * "Atualizar pelo gateway": looks the transaction up by its gateway id (or the identifier when
 * the gateway id is not known) and records what the gateway says. The cooldown is claimed with
 * one conditional UPDATE, so two clicks, tabs or servers cannot both call the gateway.
 */
export async function refreshFromGateway(accountId: string, ledgerId: string, actor: Actor, ip: string | null): Promise<RefreshResult> {
  const db = await getDb();
  const [before] = await db
    .select({ lastLookupAt: lt.lastLookupAt })
    .from(lt)
    .where(and(eq(lt.accountId, accountId), eq(lt.id, ledgerId)));
  const claimed = await db
    .update(lt)
    .set({ lastLookupAt: sql`now()` })
    .where(
      and(
        eq(lt.accountId, accountId),
        eq(lt.id, ledgerId),
        sql`(${lt.lastLookupAt} is null or ${lt.lastLookupAt} <= now() - make_interval(secs => ${LOOKUP_COOLDOWN_SECONDS}))`,
      ),
    )
    .returning({
      gatewayTransactionId: lt.gatewayTransactionId,
      identifier: lt.identifier,
      lastWebhookStatus: lt.lastWebhookStatus,
      claimedAt: lt.lastLookupAt,
    });
  const row = claimed[0];
  if (!row) {
    const [existing] = await db
      .select({ wait: sql<string>`ceil(${LOOKUP_COOLDOWN_SECONDS} - extract(epoch from now() - ${lt.lastLookupAt}))` })
      .from(lt)
      .where(and(eq(lt.accountId, accountId), eq(lt.id, ledgerId)));
    if (!existing) return { ok: false, reason: "not_found" };
    return { ok: false, reason: "too_soon", waitSeconds: Math.max(1, Number(existing.wait)) };
  }

  const query = row.gatewayTransactionId ? { id: row.gatewayTransactionId } : { clientIdentifier: row.identifier };
  let record: TransactionRecord;
  try {
    record = await (await gatewayForAccount(accountId)).getTransaction(query);
  } catch (error) {
    const result = failure(error);
    // A 429 is the gateway declining to answer, not a lookup: the cooldown is given back (the
    // limiter holds the next attempt until Retry-After), unless someone else claimed it since.
    if (result.kind === "rate_limited" && row.claimedAt) {
      await db
        .update(lt)
        .set({ lastLookupAt: before?.lastLookupAt ?? null })
        .where(
          and(
            eq(lt.accountId, accountId),
            eq(lt.id, ledgerId),
            sql`abs(extract(epoch from ${lt.lastLookupAt} - ${row.claimedAt.toISOString()}::timestamptz)) < 0.001`,
          ),
        );
    }
    await writeAudit({
      actor,
      accountId,
      action: "transactions.lookup",
      target: ledgerId,
      details: { by: row.gatewayTransactionId ? "id" : "identifier", error: result.kind, httpStatus: result.status ?? null },
      ip,
    });
    return result;
  }

  // The gateway's answer goes through the status machine like every other report: a final status holds.
  const [current] = await db
    .select()
    .from(lt)
    .where(and(eq(lt.accountId, accountId), eq(lt.id, ledgerId)));
  if (current) await applyLookup(current, record);
  await writeAudit({
    actor,
    accountId,
    action: "transactions.lookup",
    target: ledgerId,
    details: { by: row.gatewayTransactionId ? "id" : "identifier", status: record.status, lastWebhookStatus: row.lastWebhookStatus },
    ip,
  });
  return { ok: true, status: record.status, lastWebhookStatus: row.lastWebhookStatus };
}

export type LookupQuery = { by: "id" | "identifier"; value: string };
export type LookupResult =
  { ok: true; record: TransactionRecord; ledgerId: string | null } | { ok: false; reason: "not_found" } | LookupFailure;

async function ledgerIdFor(accountId: string, gatewayId: string, identifier: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: lt.id })
    .from(lt)
    .where(and(eq(lt.accountId, accountId), or(eq(lt.gatewayTransactionId, gatewayId), eq(lt.identifier, identifier))))
    .limit(1);
  return row?.id ?? null;
}

/** The lookup page: asks the gateway, and says whether the ledger already has the transaction. */
export async function lookupGatewayTransaction(
  accountId: string,
  query: LookupQuery,
  actor: Actor,
  ip: string | null,
): Promise<LookupResult> {
  let record: TransactionRecord | null;
  try {
    const gateway = await gatewayForAccount(accountId);
    record = await gateway.findTransaction(query.by === "id" ? { id: query.value } : { clientIdentifier: query.value });
  } catch (error) {
    return failure(error);
  } finally {
    await writeAudit({ actor, accountId, action: "lookup.search", target: query.value, details: { by: query.by }, ip });
  }
  if (!record) return { ok: false, reason: "not_found" };
  return { ok: true, record, ledgerId: await ledgerIdFor(accountId, record.id, record.clientIdentifier) };
}

/**
 * "Adicionar ao livro": looks the transaction up again on the server (the browser's copy is never
 * trusted) and records it as an external transaction learned by lookup. Adding twice returns the
 * same row.
 */
export async function addLookedUpTransaction(
  accountId: string,
  query: LookupQuery,
  actor: Actor,
  ip: string | null,
): Promise<{ ok: true; ledgerId: string; created: boolean } | { ok: false; reason: "not_found" } | LookupFailure> {
  let record: TransactionRecord | null;
  try {
    const gateway = await gatewayForAccount(accountId);
    record = await gateway.findTransaction(query.by === "id" ? { id: query.value } : { clientIdentifier: query.value });
  } catch (error) {
    return failure(error);
  }
  if (!record) return { ok: false, reason: "not_found" };
  const db = await getDb();
  const now = new Date();
  const inserted = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(lt)
      .values({
        accountId,
        kind: "external",
        origin: "lookup",
        identifier: record.clientIdentifier,
        gatewayTransactionId: record.id,
        status: record.status,
        statusSource: "lookup",
        statusAt: new Date(),
        lastLookupStatus: record.status,
        lastLookupAt: new Date(),
        paymentMethod: record.paymentMethod,
        amountCents: toCents(record.amount),
        currency: record.currency,
        clientName: record.pixMetadata?.payerName ?? null,
        clientDocument: record.pixMetadata?.payerDocument ?? null,
        gatewayRecord: record as Record<string, unknown>,
        createdBy: actor.id,
        createdByEmail: actor.email,
        createdAt: parseGatewayTime(record.createdAt) ?? new Date(),
        paidAt: parseGatewayTime(record.payedAt),
        ...balanceFactsFromRecord({ kind: "external", availableAt: null, reversedAt: null }, record, null, now),
      })
      .onConflictDoNothing()
      .returning();
    if (rows[0]) {
      await syncSaleMovements(tx, [rows[0].id]);
      await scheduleReleaseLookups(tx, { availableAt: null, lastLookupAt: now }, rows[0], now);
    }
    return rows;
  });
  const ledgerId = inserted[0]?.id ?? (await ledgerIdFor(accountId, record.id, record.clientIdentifier));
  if (!ledgerId) throw new Error("ledger row neither inserted nor found");
  if (inserted[0]) {
    await writeAudit({
      actor,
      accountId,
      action: "transactions.add_from_lookup",
      target: ledgerId,
      details: { gatewayTransactionId: record.id, status: record.status },
      ip,
    });
  }
  return { ok: true, ledgerId, created: Boolean(inserted[0]) };
}
