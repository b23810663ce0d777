import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { auditLog, payoutBatchRows, payoutBatches, transfers } from "@/lib/db/schema";
import type { PayoutRowCells } from "@/lib/db/tables/payout-batches";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { createSandboxControl } from "@/sandbox/control-client";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";
import { startGatewayProxy, startWebhookEndpoint } from "@/lib/testing/gateway-proxy";
import { PEOPLE_PASSWORD as PASSWORD, makerAndChecker } from "@/lib/testing/payout-people";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// This process sends the rows itself (runPayoutsOnce, as the cron tick does): no timers of its own.
process.env.RECONCILER = "off";
process.env.GATEWAY_TIMEOUT_MS = "1500";
process.env.PAYOUT_LEASE_MS = "3000";

const MAKER_IP = "203.0.113.10";
const CHECKER_IP = "203.0.113.20";

let sandbox: RunningSandbox;
let proxy: Awaited<ReturnType<typeof startGatewayProxy>>;
let endpoint: Awaited<ReturnType<typeof startWebhookEndpoint>>;
const control = () => createSandboxControl({ baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
  proxy = await startGatewayProxy(sandbox.url);
  endpoint = await startWebhookEndpoint();
  process.env.APP_URL = endpoint.url;
}, 60_000);

afterAll(async () => {
  await endpoint?.close();
  await proxy?.close();
  await sandbox?.close();
});

function cells(i: number, overrides: Partial<PayoutRowCells> = {}): PayoutRowCells {
  return {
    pixKey: `recebedor${i}@example.com`,
    pixKeyType: "",
    amount: `${10 + i},50`,
    name: `Recebedor ${i}`,
    document: "529.982.247-25",
    description: "",
    reference: `ref-${i}`,
    ...overrides,
  };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const identifierPrefix = (batchId: string) => `lote-${batchId.replace(/-/g, "")}-`;

describe.each(await testDatabases())("batch payouts on $name", (target: TestDatabase) => {
  bindDatabase(target);
  let accountId: string;
  let people: Awaited<ReturnType<typeof makerAndChecker>>;
  let maker: (typeof people)["maker"];
  let checker: (typeof people)["checker"];
  const freshCode = () => people.freshCode();
  const enrolChecker = () => people.enrolChecker();

  beforeAll(async () => {
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        { name: "Loja", baseUrl: proxy.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo", webhookToken: null, mode: "test" },
        null,
      )
    ).id;
    people = await makerAndChecker(accountId);
    ({ maker, checker } = people);
  });

  async function preparedBatch(rows: PayoutRowCells[]) {
    const { createPayoutBatch, submitPayoutBatch } = await import("../service");
    const { batchId } = await createPayoutBatch({
      accountId,
      actor: maker,
      ip: MAKER_IP,
      name: `Lote ${randomBytes(2).toString("hex")}`,
      source: "csv",
      fileName: "lote.csv",
      rows: rows.map((c, i) => ({ line: i + 2, cells: c })),
    });
    await submitPayoutBatch({ accountId, actor: maker, ip: MAKER_IP, batchId });
    return batchId;
  }

  async function approve(batchId: string) {
    const { approvePayoutBatch } = await import("../service");
    await approvePayoutBatch({
      accountId,
      actor: checker,
      ip: CHECKER_IP,
      batchId,
      proof: { password: PASSWORD, code: await freshCode() },
    });
  }

  const rowsOf = async (batchId: string) => (await import("../queries")).listPayoutRows(batchId);
  const batchOf = async (batchId: string) => (await import("../queries")).getPayoutBatch(accountId, batchId);

  /** Completes the batch's withdraws at the sandbox; their notifications reach the console's route and are applied. */
  async function completeAtSandbox(batchId: string) {
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    for (const withdraw of await control().withdraws({ identifierPrefix: identifierPrefix(batchId), status: "PENDING" })) {
      await control().completeWithdraw(withdraw.id);
    }
    return eventually(
      async () => {
        await applyPendingNotifications();
        return rowsOf(batchId);
      },
      (rows) => rows.filter((r) => r.execution === "SENT").every((r) => r.outcome === "completed"),
    );
  }

  it(
    "goes from the maker to another person's approval with password and second factor, sends every row once and settles by notification",
    { timeout: 60_000 },
    async () => {
      const { createPayoutBatch, setPayoutRowsRemoved, submitPayoutBatch, approvePayoutBatch } = await import("../service");
      const { runPayoutsOnce } = await import("../work");
      const { batchId } = await createPayoutBatch({
        accountId,
        actor: maker,
        ip: MAKER_IP,
        name: "Afiliados novembro",
        source: "csv",
        fileName: "afiliados.csv",
        rows: [cells(1), cells(2), cells(3, { amount: "1,234" }), cells(4), cells(5), cells(6)].map((c, i) => ({ line: i + 2, cells: c })),
      });
      const drafted = await rowsOf(batchId);
      expect(drafted.map((r) => r.problems.filter((p) => p.severity === "error").length)).toEqual([0, 0, 1, 0, 0, 0]);

      await expect(submitPayoutBatch({ accountId, actor: maker, ip: MAKER_IP, batchId })).rejects.toMatchObject({
        reason: "rowsWithErrors",
      });
      await setPayoutRowsRemoved({ accountId, actor: maker, ip: MAKER_IP, batchId, rowIds: [drafted[2].id], removed: true });
      await submitPayoutBatch({ accountId, actor: maker, ip: MAKER_IP, batchId });
      expect(await batchOf(batchId)).toMatchObject({
        state: "AWAITING_APPROVAL",
        rowCount: 5,
        totalCents: 1150 + 1250 + 1450 + 1550 + 1650,
      });

      // The maker may not approve their own batch; the checker needs a second factor, then the right password.
      await expect(
        approvePayoutBatch({
          accountId,
          actor: { ...maker, role: "producer" },
          ip: MAKER_IP,
          batchId,
          proof: { password: PASSWORD, code: "000000" },
        }),
      ).rejects.toMatchObject({ reason: "selfApprovalNotAllowed" });
      await expect(
        approvePayoutBatch({ accountId, actor: checker, ip: CHECKER_IP, batchId, proof: { password: PASSWORD, code: "000000" } }),
      ).rejects.toMatchObject({ reason: "secondFactorRequired" });
      await enrolChecker();
      await expect(
        approvePayoutBatch({
          accountId,
          actor: checker,
          ip: CHECKER_IP,
          batchId,
          proof: { password: "wrong-password", code: await freshCode() },
        }),
      ).rejects.toMatchObject({ reason: "wrongPassword" });
      await expect(
        approvePayoutBatch({ accountId, actor: checker, ip: CHECKER_IP, batchId, proof: { password: PASSWORD, code: "000000" } }),
      ).rejects.toMatchObject({ reason: "wrongCode" });
      expect((await batchOf(batchId))?.state).toBe("AWAITING_APPROVAL");
      expect([...proxy.transfersSent().keys()].filter((id) => id.startsWith(identifierPrefix(batchId)))).toEqual([]);

      await approve(batchId);
      expect(await batchOf(batchId)).toMatchObject({
        state: "RUNNING",
        approvedByEmail: checker.email,
        approverIp: CHECKER_IP,
        selfApproved: false,
      });
      expect((await runPayoutsOnce()).sentRows).toBe(5);
      const sent = await rowsOf(batchId);
      expect(sent.filter((r) => !r.removed).map((r) => r.outcome)).toEqual(["sent", "sent", "sent", "sent", "sent"]);
      expect(sent.find((r) => r.removed)?.execution).toBeNull();
      expect((await batchOf(batchId))?.state).toBe("FINISHED");
      for (const row of sent.filter((r) => !r.removed)) expect(proxy.transfersSent().get(row.identifier)).toBe(1);
      expect((await runPayoutsOnce()).sentRows).toBe(0);

      // Each transfer went out as the single form sends it, under the approver's name and address.
      const db = await getDb();
      const batchTransfers = (await db.select().from(transfers).where(eq(transfers.accountId, accountId))).filter((t) =>
        t.identifier.startsWith(identifierPrefix(batchId)),
      );
      expect(batchTransfers).toHaveLength(5);
      expect(batchTransfers.every((t) => t.ownerIp === CHECKER_IP && t.createdByEmail === checker.email)).toBe(true);

      const settled = await completeAtSandbox(batchId);
      expect(settled.filter((r) => !r.removed).map((r) => r.outcome)).toEqual([
        "completed",
        "completed",
        "completed",
        "completed",
        "completed",
      ]);
      expect((await batchOf(batchId))?.progress).toMatchObject({ total: 5, sent: 5, completed: 5, failed: 0, unknown: 0, remaining: 0 });

      const actions = (
        await db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.accountId, accountId), eq(auditLog.target, batchId)))
      ).map((a) => a.action);
      expect(actions).toEqual(
        expect.arrayContaining([
          "payout_batch.created",
          "payout_batch.rows_removed",
          "payout_batch.submitted",
          "payout_batch.self_approval_refused",
          "payout_batch.password_refused",
          "payout_batch.code_refused",
          "payout_batch.approved",
          "payout_batch.finished",
        ]),
      );
    },
  );

  it(
    "waits out a 429 with the whole batch; a 5xx after processing and a timeout are unknown, then settle by notification, each created once",
    { timeout: 60_000 },
    async () => {
      const { runPayoutsOnce } = await import("../work");
      const batchId = await preparedBatch([cells(11), cells(12), cells(13), cells(14)]);
      const identifier = (line: number) => `${identifierPrefix(batchId)}${line}`;
      await control().fault({ status: 429, times: 1, identifier: identifier(2) });
      await control().fault({ status: 500, afterProcessing: true, times: 1, identifier: identifier(3) });
      await control().fault({ latencyMs: 2_500, times: 1, identifier: identifier(4) });
      await approve(batchId);

      await runPayoutsOnce(1_000);
      const db = await getDb();
      const [limited] = await db
        .select()
        .from(payoutBatchRows)
        .where(eq(payoutBatchRows.identifier, identifier(2)));
      expect(limited.execution).toBe("QUEUED");
      expect(limited.notBefore).not.toBeNull();
      const [waiting] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, batchId));
      expect(waiting.notBefore).not.toBeNull();
      expect(waiting.state).toBe("RUNNING");
      expect((await rowsOf(batchId)).map((r) => r.outcome)).toEqual(["queued", "unknown", "unknown", "sent"]);

      // Retry-After says 1 s; then the row goes out under the same identifier.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await runPayoutsOnce();
      expect((await rowsOf(batchId)).map((r) => r.outcome)).toEqual(["sent", "unknown", "unknown", "sent"]);
      expect((await batchOf(batchId))?.state).toBe("FINISHED");

      // The held call ends at the sandbox after the console stopped waiting: the transfer exists there once.
      await eventually(
        async () => (await control().withdraws({ identifierPrefix: identifier(4) })).length,
        (n) => n === 1,
      );
      const settled = await completeAtSandbox(batchId);
      expect(settled.map((r) => r.outcome)).toEqual(["completed", "completed", "completed", "completed"]);
      const sent = proxy.transfersSent();
      expect([2, 3, 4, 5].map((line) => sent.get(identifier(line)))).toEqual([2, 1, 1, 1]);
      expect(await control().withdraws({ identifierPrefix: identifierPrefix(batchId) })).toHaveLength(4);
    },
  );

  it("pauses and resumes the rows not yet taken; a cancelled batch sends nothing more", { timeout: 60_000 }, async () => {
    const { pausePayoutBatch, resumePayoutBatch, cancelPayoutBatch } = await import("../service");
    const { runPayoutsOnce } = await import("../work");
    const paused = await preparedBatch([cells(21), cells(22), cells(23)]);
    await approve(paused);
    await pausePayoutBatch({ accountId, actor: checker, ip: CHECKER_IP, batchId: paused });
    expect((await runPayoutsOnce()).sentRows).toBe(0);
    expect((await rowsOf(paused)).map((r) => r.outcome)).toEqual(["queued", "queued", "queued"]);
    await resumePayoutBatch({ accountId, actor: checker, ip: CHECKER_IP, batchId: paused });
    expect((await runPayoutsOnce()).sentRows).toBe(3);

    const canceled = await preparedBatch([cells(31), cells(32)]);
    await approve(canceled);
    expect(await cancelPayoutBatch({ accountId, actor: checker, ip: CHECKER_IP, batchId: canceled })).toEqual({ canceledRows: 2 });
    expect((await runPayoutsOnce()).sentRows).toBe(0);
    expect((await rowsOf(canceled)).map((r) => r.outcome)).toEqual(["canceled", "canceled"]);
    expect((await batchOf(canceled))?.progress).toMatchObject({ sent: 0, canceled: 2, remaining: 0 });
  });

  it("lets one person approve their own batch only when an administrator allowed it, and says so", { timeout: 30_000 }, async () => {
    const { setSelfApproval, approvePayoutBatch, createPayoutBatch, submitPayoutBatch } = await import("../service");
    const { batchId } = await createPayoutBatch({
      accountId,
      actor: checker,
      ip: CHECKER_IP,
      name: "Sozinha",
      source: "paste",
      fileName: null,
      rows: [{ line: 2, cells: cells(41) }],
    });
    await submitPayoutBatch({ accountId, actor: checker, ip: CHECKER_IP, batchId });
    const attempt = async () =>
      approvePayoutBatch({ accountId, actor: checker, ip: CHECKER_IP, batchId, proof: { password: PASSWORD, code: await freshCode() } });
    await expect(attempt()).rejects.toMatchObject({ reason: "selfApprovalNotAllowed" });
    const admin = { id: "admin", email: "admin@example.com" };
    await setSelfApproval({ accountId, actor: admin, ip: null, allow: true });
    await attempt();
    expect(await batchOf(batchId)).toMatchObject({ state: "RUNNING", selfApproved: true });
    const db = await getDb();
    const actions = (await db.select().from(auditLog).where(eq(auditLog.accountId, accountId))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["payout_settings.self_approval_allowed", "payout_batch.self_approved"]));
    await setSelfApproval({ accountId, actor: admin, ip: null, allow: false });
  });
});
