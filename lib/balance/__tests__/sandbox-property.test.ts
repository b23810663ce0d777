import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/lib/db/client";
import { sql } from "drizzle-orm";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { createSandboxControl } from "@/sandbox/control-client";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.PGLITE_DIR = "memory://";
delete process.env.DATABASE_URL;
// The test drives the applier and the reconciler itself, so it knows when everything is applied.
process.env.WEBHOOK_APPLIER = "off";
process.env.RECONCILE_DELAYS_MS = "0,0,0";

type Op =
  | { t: "pix"; cents: number; pay: boolean }
  | { t: "card"; cents: number; declined: boolean }
  | { t: "reverse"; kind: "refund" | "chargeback"; pick: number }
  | { t: "transfer"; cents: number; discountFee: boolean; outcome: "complete" | "fail" | "none" };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant("pix" as const), cents: fc.integer({ min: 500, max: 80_000 }), pay: fc.boolean() }),
  fc.record({ t: fc.constant("card" as const), cents: fc.integer({ min: 500, max: 80_000 }), declined: fc.boolean() }),
  fc.record({ t: fc.constant("reverse" as const), kind: fc.constantFrom("refund" as const, "chargeback" as const), pick: fc.nat() }),
  fc.record({
    t: fc.constant("transfer" as const),
    cents: fc.integer({ min: 200, max: 60_000 }),
    discountFee: fc.boolean(),
    outcome: fc.constantFrom("complete" as const, "fail" as const, "none" as const),
  }),
);

let receiver: Server;
let sandbox: RunningSandbox | null = null;
const actor = { id: "user-balance-property", email: "propriedade@example.test" };

beforeAll(async () => {
  // Plays the console's webhook routes: every delivery is answered by the receiver's own code.
  const { answerWebhook } = await import("@/lib/notifications/http");
  receiver = createServer((request, response) => {
    const [, , , accountId, callbackKey] = (request.url ?? "").split("/");
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", async () => {
      const answer = await answerWebhook({ accountId: accountId ?? "", callbackKey, sourceIp: "127.0.0.1", readBody: async () => body });
      response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  process.env.APP_URL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  await closeDb();
});

afterAll(async () => {
  await sandbox?.close();
  await closeDb();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Until the sandbox has delivered everything and the console has applied and confirmed all of it. */
async function pendingDeliveries(): Promise<number> {
  const response = await fetch(`${sandbox!.url}/sandbox/v1/deliveries/summary`, {
    headers: { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" },
  });
  return Number(((await response.json()) as { pending: number }).pending);
}

async function settle() {
  const { applyPendingNotifications } = await import("@/lib/notifications/applier");
  const { runReconcilerOnce } = await import("@/lib/background/jobs/gateway-checks");
  const db = await getDb();
  let quiet = 0;
  for (let round = 0; round < 400 && quiet < 3; round++) {
    const pending = await pendingDeliveries();
    const applied = await applyPendingNotifications();
    const { claimed } = await runReconcilerOnce();
    const [due] = (
      await db.execute<{ n: number }>(sql`select count(*)::int as n from gateway_checks where state = 'pending' and next_at <= now()`)
    ).rows;
    quiet = pending === 0 && applied === 0 && claimed === 0 && Number(due?.n ?? 0) === 0 ? quiet + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  expect(quiet, "the console settled").toBe(3);
}

describe("the console's balance equals the sandbox's once every notification is applied", () => {
  it("for random sequences of sales, payments, refunds, chargebacks and transfers", async () => {
    const { createCharge } = await import("@/lib/charges/service");
    const { submitTransfer } = await import("@/lib/transfers/service");
    const { TransferRefusedError } = await import("@/lib/transfers/errors");
    const { createAccount } = await import("@/lib/accounts/queries");
    const { balanceFigures } = await import("@/lib/balance/queries");
    let run = 0;
    let nonZero = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 10 }), async (ops) => {
        run += 1;
        // A fresh gateway (its demo producer starting at zero) and a fresh console account for each sequence.
        await sandbox?.close();
        sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true, openingBalance: 0 });
        const control = createSandboxControl({ baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" });
        const account = await createAccount(
          {
            name: `Propriedade ${run}`,
            baseUrl: sandbox.url,
            publicKey: "pk_sandbox_demo",
            secretKey: "sk_sandbox_demo",
            webhookToken: "wht_sandbox_demo",
            mode: "test",
          },
          null,
        );
        const paid: string[] = [];
        for (const [i, step] of ops.entries()) {
          const identifier = `prop-${run}-${i}`;
          const amount = (step.t === "reverse" ? 0 : step.cents / 100).toFixed(2).replace(".", ",");
          if (step.t === "pix") {
            const { row } = await createCharge(
              "pix",
              {
                identifier,
                amount,
                client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
                products: [],
                shippingFee: "",
                extraFee: "",
                discount: "",
                splits: [],
                metadata: [],
                dueDate: "",
                callbackUrl: "",
              },
              { accountId: account.id, actor },
            );
            if (step.pay && row.gatewayTransactionId) {
              await control.event(row.gatewayTransactionId, "pay");
              paid.push(row.gatewayTransactionId);
            }
          } else if (step.t === "card") {
            const { row } = await createCharge(
              "card",
              {
                identifier,
                amount,
                installments: "1",
                clientIp: "203.0.113.7",
                client: { name: "João Lima", email: "joao@example.com", phone: "11987654321", document: "12345678909" },
                address: {
                  country: "BR",
                  zipCode: "01310-100",
                  state: "SP",
                  city: "São Paulo",
                  street: "Av. Paulista",
                  neighborhood: "Bela Vista",
                  number: "1000",
                  complement: "",
                },
                card: {
                  number: step.declined ? "4000 0000 0000 0002" : "4111 1111 1111 1111",
                  owner: "JOAO LIMA",
                  expiresAt: "2031-08",
                  cvv: "123",
                  statementDescriptor: "LOJA",
                },
                products: [],
                shippingFee: "",
                extraFee: "",
                discount: "",
                splits: [],
                metadata: [],
                callbackUrl: "",
              },
              { accountId: account.id, actor, ip: "203.0.113.7" },
            );
            if (!step.declined && row.gatewayTransactionId) paid.push(row.gatewayTransactionId);
          } else if (step.t === "reverse") {
            if (paid.length === 0) continue;
            const [target] = paid.splice(step.pick % paid.length, 1);
            await control.event(target!, step.kind);
          } else {
            try {
              const result = await submitTransfer({
                accountId: account.id,
                actor,
                ip: "203.0.113.50",
                input: {
                  identifier,
                  amount: step.cents / 100,
                  discountFeeOfReceiver: step.discountFee,
                  pix: { type: "email", key: "recebedor@example.com" },
                  owner: { name: "Joao da Silva", document: { type: "cpf", number: "52998224725" } },
                },
              });
              const db = await getDb();
              const [transfer] = (
                await db.execute<{ withdraw_id: string | null }>(sql`select withdraw_id from transfers where id = ${result.transferId}`)
              ).rows;
              const withdrawId = transfer?.withdraw_id;
              if (withdrawId && step.outcome !== "none") {
                if (step.outcome === "complete") await control.completeWithdraw(withdrawId);
                else await control.failWithdraw(withdrawId);
              }
            } catch (error) {
              // Above the balance (or not above the fee): refused by the gateway on both sides alike.
              if (!(error instanceof TransferRefusedError)) throw error;
            }
          }
        }
        await settle();
        const truth = await control.balance();
        const figures = await balanceFigures(account.id);
        if (figures.availableCents !== 0 || figures.pendingCents !== 0) nonZero += 1;
        expect({ available: figures.availableCents, pending: figures.pendingCents }).toEqual({
          available: Math.round(truth.available * 100),
          pending: Math.round(truth.pending * 100),
        });
      }),
      { numRuns: Number(process.env.BALANCE_PROPERTY_RUNS ?? 5), endOnFailure: true },
    );
    // The sequences moved money: the equality was not between two zeros only.
    expect(nonZero).toBeGreaterThan(0);
  }, 600_000);
});
