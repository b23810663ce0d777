import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { auditLog, gatewayChecks, refundRequests } from "@/lib/db/schema";
import { bindDatabase } from "@/lib/testing/bind-database";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { startLookupGateway, type RefundBehaviour } from "@/lib/testing/lookup-gateway";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// Every step of the reconciler's schedule is due at once; the give-up time is far away.
process.env.RECONCILE_DELAYS_MS = "0";
process.env.GATEWAY_TIMEOUT_MS = "300";
const gateway = await startLookupGateway();
afterAll(() => gateway.close());

const targets = await testDatabases();
const actor = { id: "user-refunds-test", email: "finance@example.test" };

describe.each(targets)("a refund request whose answer is lost, on $name", (target: TestDatabase) => {
  bindDatabase(target);
  let accountId: string;

  const accountOnce = async () => {
    if (accountId) return accountId;
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        { name: "Loja", baseUrl: gateway.baseUrl, publicKey: "pk", secretKey: "sk_1234567890", webhookToken: null, mode: "test" },
        null,
      )
    ).id;
    return accountId;
  };
  const refundRow = async (transactionId: string) => {
    const db = await getDb();
    const [row] = await db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.accountId, accountId), eq(refundRequests.identifier, transactionId)));
    return row;
  };
  /** The reconciler's passes, with the open check of this row due now (the test does not wait for the schedule). */
  const reconcile = async (rowId: string) => {
    const { runReconcilerOnce } = await import("@/lib/background/jobs/gateway-checks");
    const db = await getDb();
    await db.execute(sql`update gateway_checks set next_at = now() where target_id = ${rowId} and state = 'pending'`);
    await runReconcilerOnce();
  };

  it.each<RefundBehaviour>(["reset", "hang"])(
    "(%s) is UNKNOWN, refuses a resend, and settles by the transaction's lookup without a second request",
    async (behaviour) => {
      await accountOnce();
      const { requestRefund } = await import("@/lib/refunds/service");
      const { listRefundsForTransaction } = await import("@/lib/refunds/queries");
      const transactionId = `tx_${randomUUID()}`;
      gateway.records.set(transactionId, {
        id: transactionId,
        clientIdentifier: `ord-${transactionId}`,
        status: "COMPLETED",
        payedAt: "2026-11-20T12:05:00.000Z",
      });
      const input = { transactionId, ledgerId: undefined, reason: "Solicitação do cliente", description: "Desistiu" };
      const sent = () => gateway.refundRequests.filter((body) => body.transactionId === transactionId).length;

      gateway.refunds(behaviour);
      await expect(requestRefund({ accountId, actor, ip: null, input })).rejects.toMatchObject({ reason: "outcomeUnknown" });
      gateway.refunds("answer");
      expect(sent()).toBe(1);
      const unknown = await refundRow(transactionId);
      expect(unknown).toMatchObject({
        submission: "UNKNOWN",
        status: null,
        gatewayRefundId: null,
        error: { kind: behaviour === "hang" ? "timeout" : "network" },
      });
      // Listed as waiting, with no status of its own yet.
      expect(await listRefundsForTransaction(accountId, transactionId)).toMatchObject([
        { id: unknown!.id, submission: "UNKNOWN", status: null },
      ]);

      // A second click, a retry: nothing is sent while the first one's outcome is unknown.
      await expect(requestRefund({ accountId, actor, ip: null, input })).rejects.toMatchObject({ reason: "unresolved" });
      expect(sent()).toBe(1);

      // The gateway has not refunded the transaction yet: a lookup that proves nothing leaves it UNKNOWN.
      const lookupsBefore = gateway.lookups.length;
      await reconcile(unknown!.id);
      expect(gateway.lookups.length).toBe(lookupsBefore + 1);
      expect(await refundRow(transactionId)).toMatchObject({ submission: "UNKNOWN", transactionStatus: "COMPLETED" });

      // The request had reached the gateway, which refunded the transaction: the lookup settles it.
      gateway.records.set(transactionId, {
        ...gateway.records.get(transactionId)!,
        status: "REFUNDED",
        refundedAt: "2026-11-21T09:00:00.000Z",
      });
      await reconcile(unknown!.id);
      const settled = await refundRow(transactionId);
      expect(settled).toMatchObject({ id: unknown!.id, submission: "SUBMITTED", transactionStatus: "REFUNDED", error: null });
      expect(sent()).toBe(1);

      const db = await getDb();
      const [check] = await db.select().from(gatewayChecks).where(eq(gatewayChecks.targetId, unknown!.id));
      expect(check).toMatchObject({ target: "refund", state: "done", lastOutcome: "found" });
      const actions = (await db.select().from(auditLog).where(eq(auditLog.accountId, accountId)))
        .filter((a) => a.target === transactionId || a.target === unknown!.id)
        .map((a) => a.action);
      expect(actions).toEqual(expect.arrayContaining(["refund.outcome_unknown", "refund.rejected", "refund.reconciled"]));

      // Settled: another request for the transaction is a duplicate, named without asking the gateway.
      await expect(requestRefund({ accountId, actor, ip: null, input })).rejects.toMatchObject({ reason: "duplicate" });
      expect(sent()).toBe(1);
    },
  );

  it("a refused request created nothing: it is not listed, and may be sent again with corrected values", async () => {
    await accountOnce();
    const { requestRefund } = await import("@/lib/refunds/service");
    const { listRefundsForTransaction } = await import("@/lib/refunds/queries");
    const transactionId = `tx_${randomUUID()}`;
    const sent = () => gateway.refundRequests.filter((body) => body.transactionId === transactionId).length;
    gateway.refunds("refuse");
    await expect(
      requestRefund({ accountId, actor, ip: null, input: { transactionId, ledgerId: undefined, reason: "Erro", description: undefined } }),
    ).rejects.toMatchObject({ reason: "notFound" });
    const refused = await refundRow(transactionId);
    expect(refused).toMatchObject({ submission: "REJECTED", error: { kind: "not_found", status: 404 } });
    expect(await listRefundsForTransaction(accountId, transactionId)).toEqual([]);

    gateway.refunds("answer");
    const created = await requestRefund({
      accountId,
      actor,
      ip: null,
      input: { transactionId, ledgerId: undefined, reason: "Solicitação do cliente", description: undefined },
    });
    expect(created).toEqual({ refundId: refused!.id, status: "PENDING" });
    expect(sent()).toBe(2);
    expect(await listRefundsForTransaction(accountId, transactionId)).toMatchObject([
      { id: refused!.id, submission: "SUBMITTED", status: "PENDING", amountCents: 12345, reason: "Solicitação do cliente" },
    ]);
  });
});
