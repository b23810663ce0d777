import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, refundRequests } from "@/lib/db/schema";
import { bindDatabase } from "@/lib/testing/bind-database";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { refundRequestOpen, refundRequestOutcome } from "../outcome";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

describe("refundRequestOutcome", () => {
  it("a request reads refunded once its transaction is confirmed refunded", () => {
    expect(refundRequestOutcome("PENDING", "REFUNDED")).toEqual({ status: "REFUNDED", fromTransaction: true });
    expect(refundRequestOutcome(null, "refunded")).toEqual({ status: "REFUNDED", fromTransaction: true });
  });

  it("otherwise keeps the gateway's own answer", () => {
    expect(refundRequestOutcome("PENDING", "COMPLETED")).toEqual({ status: "PENDING", fromTransaction: false });
    expect(refundRequestOutcome("PENDING", null)).toEqual({ status: "PENDING", fromTransaction: false });
    expect(refundRequestOutcome("APPROVED", "REFUNDED")).toEqual({ status: "APPROVED", fromTransaction: false });
  });

  it("a request is open until its outcome is known", () => {
    expect(refundRequestOpen({ submission: "SUBMITTED", status: "PENDING" })).toBe(true);
    expect(refundRequestOpen({ submission: "UNKNOWN", status: null })).toBe(true);
    expect(refundRequestOpen({ submission: "SUBMITTED", status: "REFUNDED" })).toBe(false);
    expect(refundRequestOpen({ submission: "SUBMITTED", status: "REJECTED" })).toBe(false);
    expect(refundRequestOpen({ submission: "REJECTED", status: null })).toBe(false);
  });
});

const targets = await testDatabases();

describe.each(targets)("refund requests read their transaction's confirmed refund, on $name", (target: TestDatabase) => {
  bindDatabase(target);
  // Opening (and migrating) the database is the slow part: a hook's time, not the test's.
  beforeAll(async () => {
    await getDb();
  });

  it("refunded in the ledger: the request reads refunded, with the customer and amount; a parked notification changes nothing", async () => {
    const { createAccount } = await import("@/lib/accounts/queries");
    const { listRefunds, listRefundsForTransaction } = await import("../queries");
    const accountId = (
      await createAccount(
        { name: "Loja", baseUrl: "http://127.0.0.1:9", publicKey: "pk", secretKey: "sk_1234567890", webhookToken: null, mode: "test" },
        null,
      )
    ).id;
    const db = await getDb();
    const refunded = `tx_${randomUUID()}`;
    const parked = `tx_${randomUUID()}`;
    await db.insert(ledgerTransactions).values([
      {
        accountId,
        kind: "pix_charge",
        identifier: `ord-${refunded}`,
        origin: "console",
        gatewayTransactionId: refunded,
        status: "REFUNDED",
        statusSource: "lookup",
        statusAt: new Date(),
        amountCents: 4200,
        clientName: "Ana Souza",
        clientEmail: "ana@example.com",
      },
      {
        accountId,
        kind: "pix_charge",
        identifier: `ord-${parked}`,
        origin: "console",
        gatewayTransactionId: parked,
        status: "COMPLETED",
        statusAt: new Date(),
        pendingStatus: "REFUNDED",
        pendingStatusAt: new Date(),
        amountCents: 1000,
      },
    ]);
    const request = { accountId, submission: "SUBMITTED" as const, status: "PENDING", reason: "Solicitação do cliente" };
    await db.insert(refundRequests).values([
      { ...request, gatewayTransactionId: refunded, identifier: refunded },
      { ...request, gatewayTransactionId: parked, identifier: parked },
    ]);

    expect(await listRefundsForTransaction(accountId, refunded)).toMatchObject([
      {
        status: "REFUNDED",
        reportedStatus: "PENDING",
        statusFromTransaction: true,
        customerName: "Ana Souza",
        customerEmail: "ana@example.com",
        transactionAmountCents: 4200,
        transactionStatus: "REFUNDED",
      },
    ]);
    // A notification of a refund is a hint until a lookup confirms it.
    expect(await listRefundsForTransaction(accountId, parked)).toMatchObject([
      { status: "PENDING", statusFromTransaction: false, transactionStatus: "COMPLETED" },
    ]);
    expect((await listRefunds(accountId)).map((row) => row.status).sort()).toEqual(["PENDING", "REFUNDED"]);
  });
});
