import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { gatewayAccounts, transferNotifications, transfers, gatewayNotifications } from "@/lib/db/schema";
import { encryptSecret } from "@/lib/crypto/secrets";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");

const targets = await testDatabases();

async function seedTransfer(overrides: { token?: string | null; submission?: "SUBMITTED" | "UNKNOWN" } = {}) {
  const db = await getDb();
  const [account] = await db
    .insert(gatewayAccounts)
    .values({ name: "Loja", baseUrl: "https://gw.example", publicKey: "pk", secretKeyEncrypted: encryptSecret("sk"), secretKeyLast4: "sk" })
    .returning();
  const identifier = `tr-${randomBytes(4).toString("hex")}`;
  const withdrawId = `wd_${randomBytes(4).toString("hex")}`;
  const token = overrides.token === undefined ? `wht_${randomBytes(8).toString("hex")}` : overrides.token;
  const [transfer] = await db
    .insert(transfers)
    .values({
      accountId: account!.id,
      identifier,
      submission: overrides.submission ?? "SUBMITTED",
      amountCents: 1500,
      discountFeeOfReceiver: true,
      pixKeyType: "email",
      pixKey: "ana@example.com",
      ownerName: "Ana Souza",
      ownerDocumentType: "cpf",
      ownerDocumentNumber: "52998224725",
      ownerIp: "203.0.113.7",
      callbackUrl: "https://console.example/api/webhooks/x",
      withdrawId: overrides.submission === "UNKNOWN" ? null : withdrawId,
      withdrawStatus: overrides.submission === "UNKNOWN" ? null : "PENDING",
      withdrawStatusSource: "creation",
      webhookTokenEncrypted: token ? encryptSecret(token) : null,
    })
    .returning();
  return { accountId: account!.id, transfer: transfer!, identifier, withdrawId, token: token ?? "" };
}

function completedPayload(seed: { identifier: string; withdrawId: string; token: string }, status = "COMPLETED") {
  return {
    event: "WITHDRAW_COMPLETED",
    token: seed.token,
    identifier: seed.identifier,
    withdraw: {
      id: seed.withdrawId,
      amount: 15,
      feeAmount: 1,
      currency: "BRL",
      status,
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:05:00Z",
    },
    payoutAccount: { id: "pa_1", status: "ACTIVE", pix: "ana@example.com", pixType: "email" },
  };
}

describe("isTransferNotification", () => {
  it("recognises withdraw payloads and WITHDRAW_/TRANSFER_ events, not payment webhooks", async () => {
    const { isTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    expect(isTransferNotification({ withdraw: { id: "w" } })).toBe(true);
    expect(isTransferNotification({ event: "WITHDRAW_FAILED" })).toBe(true);
    expect(isTransferNotification({ event: "TRANSFER_DONE" })).toBe(true);
    expect(isTransferNotification({ event: "TRANSACTION_PAID", transaction: { id: "t" } })).toBe(false);
    expect(isTransferNotification({ withdraw: "x" })).toBe(false);
    expect(isTransferNotification(null)).toBe(false);
    expect(isTransferNotification([])).toBe(false);
  });
});

describe.each(targets)("applyTransferNotification on $name", (target: TestDatabase) => {
  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    // Migrations run on first use; keep that out of the first test's time budget.
    await getDb();
  }, 120_000);
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("applies the reported status when the token matches, once per distinct delivery", async () => {
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const seed = await seedTransfer();
    const payload = completedPayload(seed);
    expect(await applyTransferNotification(seed.accountId, payload)).toEqual({
      outcome: "applied",
      transferId: seed.transfer.id,
      statusApplied: true,
    });
    // A repeated delivery is counted, and changes nothing.
    expect(await applyTransferNotification(seed.accountId, { ...payload })).toEqual({
      outcome: "applied",
      transferId: seed.transfer.id,
      statusApplied: false,
    });

    const db = await getDb();
    const [row] = await db.select().from(transfers).where(eq(transfers.id, seed.transfer.id));
    expect(row?.withdrawStatus).toBe("COMPLETED");
    expect(row?.withdrawStatusSource).toBe("notification");
    expect(row?.lastNotificationEvent).toBe("WITHDRAW_COMPLETED");
    expect(row?.lastNotificationAt).toBeInstanceOf(Date);
    const notes = await db.select().from(transferNotifications).where(eq(transferNotifications.transferId, seed.transfer.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]?.deliveries).toBe(2);
    expect(JSON.stringify(notes[0]?.payload)).not.toContain(seed.token);
  });

  it("keeps an unknown status string exactly as reported", async () => {
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const seed = await seedTransfer();
    await applyTransferNotification(seed.accountId, { ...completedPayload(seed, "IN_ANALYSIS_X"), event: "TRANSFER_SOMETHING" });
    const db = await getDb();
    const [row] = await db.select().from(transfers).where(eq(transfers.id, seed.transfer.id));
    expect(row?.withdrawStatus).toBe("IN_ANALYSIS_X");
  });

  it("refuses a wrong, missing or differently sized token and changes nothing", async () => {
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const seed = await seedTransfer();
    for (const token of [`${seed.token.slice(0, -1)}x`, "short", "", undefined, 42]) {
      const result = await applyTransferNotification(seed.accountId, { ...completedPayload(seed), token });
      expect(result).toEqual({ outcome: "bad_token", transferId: seed.transfer.id });
    }
    const db = await getDb();
    const [row] = await db.select().from(transfers).where(eq(transfers.id, seed.transfer.id));
    expect(row?.withdrawStatus).toBe("PENDING");
    expect(row?.lastNotificationAt).toBeNull();
    expect(await db.select().from(transferNotifications).where(eq(transferNotifications.transferId, seed.transfer.id))).toHaveLength(0);
  });

  it("finds the transfer by identifier when the withdraw id is not known yet", async () => {
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const seed = await seedTransfer();
    const payload = completedPayload(seed);
    const result = await applyTransferNotification(seed.accountId, { ...payload, withdraw: { ...payload.withdraw, id: "wd_other" } });
    expect(result).toMatchObject({ outcome: "applied", transferId: seed.transfer.id });
  });

  it("never turns a completed transfer back, whatever arrives later and whenever it claims to be from", async () => {
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const seed = await seedTransfer();
    await applyTransferNotification(seed.accountId, completedPayload(seed));
    const late = completedPayload(seed, "PENDING");
    late.withdraw.updatedAt = "2027-01-01T00:00:00Z";
    expect(await applyTransferNotification(seed.accountId, { ...late, event: "WITHDRAW_PENDING" })).toMatchObject({
      outcome: "applied",
      statusApplied: false,
    });
    expect(
      await applyTransferNotification(seed.accountId, { ...completedPayload(seed, "FAILED"), event: "WITHDRAW_FAILED" }),
    ).toMatchObject({ statusApplied: false });
    const db = await getDb();
    const [row] = await db.select().from(transfers).where(eq(transfers.id, seed.transfer.id));
    expect(row?.withdrawStatus).toBe("COMPLETED");
    // Both deliveries stay in the transfer's timeline.
    expect(await db.select().from(transferNotifications).where(eq(transferNotifications.transferId, seed.transfer.id))).toHaveLength(3);
  });

  it("matches a transfer whose answer was lost by its own callback path, and refuses a wrong path", async () => {
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const { callbackKeyHash, newCallbackKey } = await import("@/lib/transfers/callback-key");
    const seed = await seedTransfer({ token: null, submission: "UNKNOWN" });
    const key = newCallbackKey();
    const db = await getDb();
    await db
      .update(transfers)
      .set({ callbackKeyHash: callbackKeyHash(key) })
      .where(eq(transfers.id, seed.transfer.id));
    const payload = { ...completedPayload({ ...seed, token: "wht_the_gateways_token_we_never_got" }), identifier: undefined };
    expect(await applyTransferNotification(seed.accountId, payload, newCallbackKey())).toMatchObject({ outcome: "unknown_transfer" });
    expect(await applyTransferNotification(seed.accountId, payload)).toMatchObject({ outcome: "unknown_transfer" });
    expect(await applyTransferNotification(seed.accountId, payload, key)).toEqual({
      outcome: "applied",
      transferId: seed.transfer.id,
      statusApplied: true,
    });
    const [row] = await db.select().from(transfers).where(eq(transfers.id, seed.transfer.id));
    expect(row).toMatchObject({ submission: "SUBMITTED", withdrawStatus: "COMPLETED", withdrawId: seed.withdrawId });
  });

  it("answers unknown_transfer for another account's transfer or an unknown one", async () => {
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const seed = await seedTransfer();
    const other = await seedTransfer();
    expect(await applyTransferNotification(other.accountId, completedPayload(seed))).toEqual({ outcome: "unknown_transfer" });
    expect(
      await applyTransferNotification(seed.accountId, {
        ...completedPayload(seed),
        identifier: "nope",
        withdraw: { id: "wd_nope", status: "COMPLETED" },
      }),
    ).toEqual({ outcome: "unknown_transfer" });
    expect(await applyTransferNotification(seed.accountId, { event: "WITHDRAW_COMPLETED", token: seed.token })).toEqual({
      outcome: "unknown_transfer",
    });
  });
  it("through the receiver: acknowledged once stored, applied to the transfer by the applier, a repeat counted once more", async () => {
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    const previous = process.env.WEBHOOK_APPLIER;
    // The test drives the applier itself.
    process.env.WEBHOOK_APPLIER = "off";
    try {
      const seed = await seedTransfer();
      const body = JSON.stringify(completedPayload(seed));
      const db = await getDb();
      const transferOf = async () => (await db.select().from(transfers).where(eq(transfers.id, seed.transfer.id)))[0];

      const forged = await receiveNotification({ accountId: seed.accountId, body: body.replace(seed.token, "wht_forged"), sourceIp: null });
      expect(forged).toEqual({ status: 401, body: { error: "bad_token" } });

      const answer = await receiveNotification({ accountId: seed.accountId, body, sourceIp: null });
      expect(answer).toMatchObject({ status: 200, body: { received: true, deliveries: 1 } });
      const id = String(answer.body.id);
      const eventOf = async () => (await db.select().from(gatewayNotifications).where(eq(gatewayNotifications.id, id)))[0];
      // Stored and acknowledged: the transfer is not touched inside the request.
      expect(await eventOf()).toMatchObject({
        kind: "transfer",
        transferId: seed.transfer.id,
        applyState: "pending",
        confirmation: "unconfirmable",
      });
      expect((await transferOf())?.withdrawStatus).toBe("PENDING");

      while ((await applyPendingNotifications()) > 0);
      expect(await eventOf()).toMatchObject({ applyState: "applied", ledgerOutcome: "updated", confirmation: "unconfirmable" });
      expect(await transferOf()).toMatchObject({
        withdrawStatus: "COMPLETED",
        withdrawStatusSource: "notification",
        lastNotificationEvent: "WITHDRAW_COMPLETED",
      });

      // The same delivery again: one stored event, counted twice, on the transfer's timeline too; nothing else changes.
      expect(await receiveNotification({ accountId: seed.accountId, body, sourceIp: null })).toMatchObject({
        status: 200,
        body: { id, deliveries: 2 },
      });
      while ((await applyPendingNotifications()) > 0);
      expect(await eventOf()).toMatchObject({ applyState: "applied", ledgerOutcome: "updated", deliveries: 2 });
      const notes = await db.select().from(transferNotifications).where(eq(transferNotifications.transferId, seed.transfer.id));
      expect(notes.map((n) => n.deliveries)).toEqual([2]);
    } finally {
      if (previous === undefined) delete process.env.WEBHOOK_APPLIER;
      else process.env.WEBHOOK_APPLIER = previous;
    }
  });
});
