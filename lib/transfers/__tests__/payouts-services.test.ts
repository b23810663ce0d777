import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { auditLog, refundRequests, transfers } from "@/lib/db/schema";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { createSandboxControl } from "@/sandbox/control-client";
import type { TransferInput } from "@/lib/transfers/schemas";
import type { CheckoutLinkInput } from "@/lib/checkout-links/schemas";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.PGLITE_DIR = "memory://";
delete process.env.DATABASE_URL;

const CLIENT_IP = "203.0.113.50";
let sandbox: RunningSandbox;
let receiver: Server;
const received: Record<string, unknown>[] = [];
let demoAccountId: string;
let companyAccountId: string;
let actor: { id: string; email: string };
const control = () => createSandboxControl({ baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" });

function transferInput(overrides: Partial<TransferInput> = {}): TransferInput {
  return {
    identifier: `tr-${randomBytes(6).toString("hex")}`,
    amount: 15,
    discountFeeOfReceiver: true,
    pix: { type: "email", key: "recebedor@example.com" },
    owner: { name: "Joao da Silva", document: { type: "cpf", number: "52998224725" } },
    ...overrides,
  };
}

async function auditActions(accountId: string) {
  const db = await getDb();
  return db.select().from(auditLog).where(eq(auditLog.accountId, accountId));
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
  // Plays the console's webhook route: captures what the sandbox sends to callbackUrl.
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  process.env.APP_URL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  await closeDb();
  const { createAccount } = await import("@/lib/accounts/queries");
  const { createUser } = await import("@/lib/users/queries");
  demoAccountId = (
    await createAccount(
      { name: "demo", baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo", webhookToken: null, mode: "test" },
      null,
    )
  ).id;
  companyAccountId = (
    await createAccount(
      {
        name: "company",
        baseUrl: sandbox.url,
        publicKey: "pk_sandbox_company",
        secretKey: "sk_sandbox_company",
        webhookToken: null,
        mode: "test",
      },
      null,
    )
  ).id;
  const email = `producer-${randomBytes(3).toString("hex")}@example.com`;
  const id = await createUser(
    { email, name: "Produtora", password: "correct-horse-battery", role: "producer", accountIds: [demoAccountId, companyAccountId] },
    null,
  );
  actor = { id, email };
}, 120_000);

afterAll(async () => {
  await closeDb();
  await sandbox?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("transfers", () => {
  it("sends once, stores the webhook token encrypted, replays the same identifier and applies the notification", async () => {
    const { submitTransfer } = await import("@/lib/transfers/service");
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const input = transferInput({ owner: { name: "Joao da Silva", document: { type: "cpf", number: "52998224725" } } });
    const first = await submitTransfer({ accountId: demoAccountId, actor, ip: CLIENT_IP, input });
    expect(first.replayed).toBe(false);
    const again = await submitTransfer({ accountId: demoAccountId, actor, ip: CLIENT_IP, input });
    expect(again).toEqual({ transferId: first.transferId, replayed: true });

    const db = await getDb();
    const [row] = await db.select().from(transfers).where(eq(transfers.id, first.transferId));
    expect(row?.submission).toBe("SUBMITTED");
    expect(row?.withdrawStatus).toBe("PENDING");
    expect(row?.ownerIp).toBe(CLIENT_IP);
    expect(row?.receiptUrl).toMatch(/transfer-receipt/);
    expect(row?.webhookTokenEncrypted).toMatch(/^v1:/);

    const audit = await auditActions(demoAccountId);
    const submitted = audit.find((a) => a.action === "transfer.submitted" && a.target === input.identifier);
    expect(submitted?.userEmail).toBe(actor.email);
    expect(JSON.stringify(audit)).not.toMatch(/wht_|webhookToken/);

    await control().completeWithdraw(row!.withdrawId!);
    const notification = await waitFor(() => received.find((n) => n.identifier === input.identifier));
    expect(await applyTransferNotification(demoAccountId, { ...notification, token: "forged" })).toMatchObject({ outcome: "bad_token" });
    expect(await applyTransferNotification(demoAccountId, notification)).toEqual({
      outcome: "applied",
      transferId: first.transferId,
      statusApplied: true,
    });
    const [after] = await db.select().from(transfers).where(eq(transfers.id, first.transferId));
    expect(after?.withdrawStatus).toBe((notification.withdraw as { status: string }).status);
    expect(after?.lastNotificationEvent).toBe("WITHDRAW_COMPLETED");
  });

  it("refuses without a client IPv4 and records nothing", async () => {
    const { submitTransfer } = await import("@/lib/transfers/service");
    const input = transferInput();
    // IPv6 loopback is sent as 127.0.0.1 (owner-ip.ts); any other IPv6 address has no IPv4 form.
    for (const ip of [null, "2001:db8::1"]) {
      await expect(submitTransfer({ accountId: demoAccountId, actor, ip, input })).rejects.toMatchObject({ reason: "ipUnknown" });
    }
    const db = await getDb();
    expect(await db.select().from(transfers).where(eq(transfers.identifier, input.identifier))).toHaveLength(0);
  });

  it("refuses a wrong password and audits it", async () => {
    const { confirmMoneyOut } = await import("@/lib/transfers/service");
    const producer = { ...actor, role: "producer" as const };
    await expect(
      confirmMoneyOut(producer, { password: "correct-horse-battery" }, { accountId: demoAccountId, ip: CLIENT_IP, identifier: "x" }),
    ).resolves.toBeUndefined();
    await expect(
      confirmMoneyOut(producer, { password: "wrong-password" }, { accountId: demoAccountId, ip: CLIENT_IP, identifier: "tr-wrong" }),
    ).rejects.toMatchObject({
      reason: "wrongPassword",
    });
    const audit = await auditActions(demoAccountId);
    expect(audit.find((a) => a.action === "transfer.password_refused" && a.target === "tr-wrong")?.userId).toBe(actor.id);
  });

  it("keeps a dropped answer UNKNOWN and refuses to send that identifier again", async () => {
    const { submitTransfer } = await import("@/lib/transfers/service");
    const input = transferInput();
    await control().fault({ dropConnection: true, times: 1 });
    const result = await submitTransfer({ accountId: demoAccountId, actor, ip: CLIENT_IP, input });
    const db = await getDb();
    const [row] = await db.select().from(transfers).where(eq(transfers.id, result.transferId));
    expect(row?.submission).toBe("UNKNOWN");
    await expect(submitTransfer({ accountId: demoAccountId, actor, ip: CLIENT_IP, input })).rejects.toMatchObject({ reason: "unresolved" });
  });

  it("enforces the daily limit per account", async () => {
    const { submitTransfer, DailyLimitError } = await import("@/lib/transfers/service");
    const { saveTransferSettings } = await import("@/lib/transfers/queries");
    await saveTransferSettings(companyAccountId, 2000, actor);
    await submitTransfer({ accountId: companyAccountId, actor, ip: CLIENT_IP, input: transferInput({ amount: 15 }) });
    const refused = submitTransfer({ accountId: companyAccountId, actor, ip: CLIENT_IP, input: transferInput({ amount: 5.01 }) });
    await expect(refused).rejects.toBeInstanceOf(DailyLimitError);
    await expect(refused).rejects.toMatchObject({ limit: 20, usedToday: 15, available: 5 });
    await submitTransfer({ accountId: companyAccountId, actor, ip: CLIENT_IP, input: transferInput({ amount: 5 }) });
    const audit = await auditActions(companyAccountId);
    expect(audit.some((a) => a.action === "transfer.refused_daily_limit")).toBe(true);
  });
});

describe("refund requests", () => {
  it("stores a PENDING request, names a duplicate and an unknown transaction, and reads the transaction after approval", async () => {
    const { requestRefund, refreshRefundTransaction } = await import("@/lib/refunds/service");
    const { listRefundsForTransaction } = await import("@/lib/refunds/queries");
    const { gatewayForAccount } = await import("@/lib/gateway/connection");
    const gateway = await gatewayForAccount(demoAccountId);
    const charge = await gateway.createPixCharge({
      identifier: `pix-${randomBytes(4).toString("hex")}`,
      amount: 42,
      client: { name: "Ana", email: "ana@example.com", phone: "(11) 99999-9999", document: "52998224725" },
    });
    await control().event(charge.transactionId, "pay");

    const input = { transactionId: charge.transactionId, ledgerId: undefined, reason: "Solicitação do cliente", description: "Desistiu" };
    const created = await requestRefund({ accountId: demoAccountId, actor, ip: CLIENT_IP, input });
    expect(created.status).toBe("PENDING");
    await expect(requestRefund({ accountId: demoAccountId, actor, ip: CLIENT_IP, input })).rejects.toMatchObject({ reason: "duplicate" });
    await expect(
      requestRefund({ accountId: demoAccountId, actor, ip: CLIENT_IP, input: { ...input, transactionId: "tx_does_not_exist" } }),
    ).rejects.toMatchObject({ reason: "notFound" });

    const [refund] = await listRefundsForTransaction(demoAccountId, charge.transactionId);
    expect(refund).toMatchObject({ status: "PENDING", amountCents: 4200, reason: "Solicitação do cliente", requestedByEmail: actor.email });
    expect(await listRefundsForTransaction(companyAccountId, charge.transactionId)).toHaveLength(0);

    const db = await getDb();
    const [row] = await db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.id, refund!.id)));
    await control().approveRefund(row!.gatewayRefundId!);
    expect(await refreshRefundTransaction(demoAccountId, refund!.id)).toEqual({ transactionStatus: "REFUNDED" });
    const [afterRefresh] = await listRefundsForTransaction(demoAccountId, charge.transactionId);
    expect(afterRefresh).toMatchObject({
      status: "REFUNDED",
      reportedStatus: "PENDING",
      transactionStatus: "REFUNDED",
      transactionStatusSource: "lookup",
    });

    const audit = await auditActions(demoAccountId);
    expect(audit.find((a) => a.action === "refund.requested" && a.target === charge.transactionId)?.userEmail).toBe(actor.email);
    expect(audit.some((a) => a.action === "refund.rejected" && a.target === charge.transactionId)).toBe(true);
  });
});

describe("checkout links", () => {
  const input: CheckoutLinkInput = {
    product: {
      externalId: "prod-1",
      name: "Curso",
      offer: { name: "Oferta", price: 97, offerType: "UNIQUE", currency: "BRL", lang: "pt-BR" },
    },
    settings: {
      paymentMethods: ["PIX"],
      acceptedDocs: ["CPF"],
      askForAddress: false,
      colors: { primary: "#0f766e", background: "#ffffff", text: "#111827", buttonText: "#ffffff" },
    },
  };

  it("creates a link for demo, lists it and audits it", async () => {
    const { createCheckoutLink } = await import("@/lib/checkout-links/service");
    const { listCheckoutLinks } = await import("@/lib/checkout-links/queries");
    const created = await createCheckoutLink({ accountId: demoAccountId, actor, ip: CLIENT_IP, input });
    expect(created.checkoutUrl).toMatch(/^http/);
    expect((await listCheckoutLinks(demoAccountId)).map((l) => l.id)).toContain(created.id);
    const audit = await auditActions(demoAccountId);
    expect(audit.find((a) => a.action === "checkout_link.created")?.userEmail).toBe(actor.email);
  });

  it("records a link whose answer was lost as UNKNOWN, for the reconciler and a person, and lists only created links", async () => {
    const { createCheckoutLink } = await import("@/lib/checkout-links/service");
    const { listCheckoutLinks } = await import("@/lib/checkout-links/queries");
    const { checkoutLinks, gatewayChecks } = await import("@/lib/db/schema");
    await control().fault({ dropConnection: true, times: 1 });
    await expect(createCheckoutLink({ accountId: demoAccountId, actor, ip: CLIENT_IP, input })).rejects.toMatchObject({
      reason: "outcomeUnknown",
    });
    const db = await getDb();
    const unknown = await db
      .select()
      .from(checkoutLinks)
      .where(and(eq(checkoutLinks.accountId, demoAccountId), eq(checkoutLinks.submission, "UNKNOWN")));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ checkoutUrl: null, error: { kind: "network" } });
    const [check] = await db.select().from(gatewayChecks).where(eq(gatewayChecks.targetId, unknown[0]!.id));
    expect(check).toMatchObject({ target: "checkout_link", state: "pending" });
    expect((await listCheckoutLinks(demoAccountId)).map((l) => l.id)).not.toContain(unknown[0]!.id);
    const audit = await auditActions(demoAccountId);
    expect(audit.some((a) => a.action === "checkout_link.rejected" && a.details?.outcomeUnknown === true)).toBe(true);
  });

  it("explains a 403 with the gateway's own message", async () => {
    const { createCheckoutLink } = await import("@/lib/checkout-links/service");
    const attempt = createCheckoutLink({ accountId: companyAccountId, actor, ip: CLIENT_IP, input });
    await expect(attempt).rejects.toMatchObject({ reason: "forbidden" });
    await expect(attempt).rejects.toSatisfy((e: { gatewayMessage?: string }) => /PRODUCER_CHECKOUT/.test(e.gatewayMessage ?? ""));
  });
});
