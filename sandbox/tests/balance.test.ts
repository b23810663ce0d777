/* eslint-disable @typescript-eslint/no-explicit-any -- responses are inspected loosely */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCents } from "../../lib/br/money";
import type { RunningSandbox } from "../app";
import { openDatabase } from "../db/client";
import { balanceAt, createProducer } from "../domain/balance";
import { SEED_PRODUCERS } from "../seed";
import {
  api,
  boletoBody,
  cardBody,
  KEYS,
  pixBody,
  postgresReachable,
  start,
  transferBody,
  uid,
  withPostgresDatabase,
  type Who,
} from "./helpers";

const DAY = 86_400_000;
const HOOK = "http://127.0.0.1:9/hook";
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const plus = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();
/** `YYYY-MM-DD` n calendar days after a `YYYY-MM-DD`. */
const dayPlus = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const saoPauloDay = (iso: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(iso),
  );

type Balance = { currency: string; available: number; pending: number; releases: Array<{ date: string; amount: number }> };

let sandbox: RunningSandbox;

async function balance(who: Who): Promise<Balance> {
  const res = await api(sandbox, who).control("GET", "/balance");
  expect(res.status).toBe(200);
  return res.json;
}

/** Available and pending in centavos. */
async function cents(who: Who) {
  const b = await balance(who);
  return { available: toCents(b.available), pending: toCents(b.pending) };
}

async function dated(who: Who, at: string, method: string, p: string, body?: unknown) {
  const keys = KEYS[who];
  const res = await fetch(`${sandbox.url}${p}`, {
    method,
    headers: { "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey, "content-type": "application/json", "x-sandbox-at": at },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function record(who: Who, transactionId: string) {
  return (await api(sandbox, who).get(`/transactions?id=${transactionId}`)).json;
}

/** The net of a charge: amount − fee − splits, in centavos. */
const netOf = (amount: number, created: { fee?: number }, splits = 0) => toCents(amount) - toCents(created.fee ?? 0) - toCents(splits);

beforeAll(async () => {
  sandbox = await start({ openingBalance: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe("balance: sales", () => {
  it("keeps a card sale's net (amount − fee − splits) pending until availableAt, then available on the sandbox clock", async () => {
    const company = api(sandbox, "company");
    expect(await balance("company")).toEqual({ currency: "BRL", available: 0, pending: 0, releases: [] });
    const created = await company.post(
      "/card/receive",
      cardBody({ amount: 99.9, splits: [{ producerId: "afiliado", amount: 10 }], callbackUrl: HOOK }),
    );
    expect(created.status).toBe(200);
    const net = netOf(99.9, created.json, 10);
    const tx = await record("company", created.json.transactionId);
    expect(tx.availableAt).toBe(plus(tx.payedAt, 30 * DAY));
    const [delivery] = await company.controlClient().deliveries({ transactionId: created.json.transactionId });
    expect((delivery.payload as any).transaction.commissionAmount).toBe(net / 100);

    expect(await balance("company")).toEqual({
      currency: "BRL",
      available: 0,
      pending: net / 100,
      releases: [{ date: saoPauloDay(tx.availableAt), amount: net / 100 }],
    });
    await company.controlClient().advanceClock(29);
    expect(await cents("company")).toEqual({ available: 0, pending: net });
    await company.controlClient().advanceClock(1);
    expect(await balance("company")).toEqual({ currency: "BRL", available: net / 100, pending: 0, releases: [] });
  });

  it("makes Pix available at payment (D+0) and a deposit's whole amount (no fee)", async () => {
    const demo = api(sandbox, "demo");
    const before = await cents("demo");
    const pix = await demo.post("/pix/receive", pixBody({ amount: 10.5 }));
    expect(await cents("demo")).toEqual(before);
    const paid = await demo.controlClient().event(pix.json.transactionId, "pay");
    expect(paid.availableAt).toBe(paid.payedAt);
    const afterPix = await cents("demo");
    expect(afterPix).toEqual({ available: before.available + netOf(10.5, pix.json), pending: before.pending });

    const deposit = await demo.post("/pix/deposit", { amount: 20, callbackUrl: HOOK });
    await demo.controlClient().event(deposit.json.transactionId, "pay");
    expect(await cents("demo")).toEqual({ available: afterPix.available + 2000, pending: before.pending });
    const [paidDelivery] = (await demo.controlClient().deliveries({ transactionId: deposit.json.transactionId })).filter(
      (d) => d.event === "TRANSACTION_PAID",
    );
    expect((paidDelivery.payload as any).transaction.commissionAmount).toBe(20);
  });

  it("keeps a boleto pending one day (D+1): one paid two days ago is available, one paid now is pending", async () => {
    const demo = api(sandbox, "demo");
    const before = await cents("demo");
    const old = await dated("demo", ago(3 * DAY), "POST", "/api/v1/gateway/boleto/receive", boletoBody({ amount: 150 }));
    const paidAt = ago(2 * DAY);
    const paid = await dated("demo", paidAt, "POST", `/sandbox/v1/transactions/${old.json.transactionId}/events`, { type: "pay" });
    expect(paid.json.availableAt).toBe(plus(paidAt, DAY));
    const fresh = await demo.post("/boleto/receive", boletoBody({ amount: 80 }));
    await demo.controlClient().event(fresh.json.transactionId, "pay");
    expect(await cents("demo")).toEqual({
      available: before.available + netOf(150, old.json),
      pending: before.pending + netOf(80, fresh.json),
    });
  });

  it("adds a card subscription's charge like any card sale", async () => {
    const demo = api(sandbox, "demo");
    const before = await cents("demo");
    const sub = await demo.post("/card/subscription", {
      identifier: uid("sub"),
      amount: 29.9,
      client: { name: "Ana", email: "ana@example.com", phone: "11987654321", document: "12345678909" },
      clientIp: "200.1.2.3",
      product: { id: "p1", name: "Plano", price: 29.9 },
      subscription: { periodicityType: "MONTHS", periodicity: 1 },
      card: cardBody().card,
    });
    expect(sub.status, sub.text).toBe(200);
    expect(await cents("demo")).toEqual({ available: before.available, pending: before.pending + netOf(29.9, sub.json.charge) });
  });
});

describe("balance: refunds and chargebacks take the amount back", () => {
  it("before the release: the pending release is cancelled and fee + splits come from available", async () => {
    const demo = api(sandbox, "demo");
    const before = await cents("demo");
    const created = await demo.post("/card/receive", cardBody({ amount: 200, splits: [{ producerId: "afiliado", amount: 20 }] }));
    const net = netOf(200, created.json, 20);
    expect(await cents("demo")).toEqual({ available: before.available, pending: before.pending + net });
    await demo.controlClient().event(created.json.transactionId, "refund");
    expect(await cents("demo")).toEqual({ available: before.available - (20_000 - net), pending: before.pending });
  });

  it("after the release: an approved refund request takes the whole amount from available", async () => {
    const demo = api(sandbox, "demo");
    const pix = await demo.post("/pix/receive", pixBody({ amount: 64 }));
    await demo.controlClient().event(pix.json.transactionId, "pay");
    const afterSale = await cents("demo");
    const refund = await demo.post("/producer/refunds", { transactionId: pix.json.transactionId, reason: "Pedido do cliente" });
    expect(await cents("demo")).toEqual(afterSale);
    await demo.controlClient().approveRefund(refund.json.id);
    expect(await cents("demo")).toEqual({ available: afterSale.available - 6400, pending: afterSale.pending });
  });

  it("a chargeback after the release takes the amount from available; before it, the release is cancelled", async () => {
    const demo = api(sandbox, "demo");
    const boleto = await dated("demo", ago(5 * DAY), "POST", "/api/v1/gateway/boleto/receive", boletoBody({ amount: 300 }));
    await dated("demo", ago(4 * DAY), "POST", `/sandbox/v1/transactions/${boleto.json.transactionId}/events`, { type: "pay" });
    const released = await cents("demo");
    await demo.controlClient().event(boleto.json.transactionId, "chargeback");
    expect(await cents("demo")).toEqual({ available: released.available - 30_000, pending: released.pending });

    const card = await demo.post("/card/receive", cardBody({ amount: 50 }));
    const afterCard = await cents("demo");
    await demo.controlClient().event(card.json.transactionId, "chargeback");
    expect(await cents("demo")).toEqual({
      available: afterCard.available - (5000 - netOf(50, card.json)),
      pending: afterCard.pending - netOf(50, card.json),
    });
  });
});

describe("balance: transfers", () => {
  it("debits the amount (fee from the receiver) or amount + fee, gives both back when the transfer fails, and not twice on a replay", async () => {
    const demo = api(sandbox, "demo");
    const deposit = await demo.post("/pix/deposit", { amount: 500 });
    await demo.controlClient().event(deposit.json.transactionId, "pay");
    const start0 = await cents("demo");

    const feeFromReceiver = transferBody({ amount: 100 });
    const first = await demo.post("/transfers", feeFromReceiver);
    expect(first.status).toBe(200);
    expect(await cents("demo")).toEqual({ available: start0.available - 10_000, pending: start0.pending });
    expect((await demo.post("/transfers", feeFromReceiver)).json).toEqual(first.json);
    expect(await cents("demo")).toEqual({ available: start0.available - 10_000, pending: start0.pending });

    const second = await demo.post("/transfers", transferBody({ amount: 100, discountFeeOfReceiver: false }));
    expect(await cents("demo")).toEqual({ available: start0.available - 20_100, pending: start0.pending });

    await demo.controlClient().completeWithdraw(first.json.withdraw.id);
    expect(await cents("demo")).toEqual({ available: start0.available - 20_100, pending: start0.pending });
    await demo.controlClient().failWithdraw(second.json.withdraw.id);
    expect(await cents("demo")).toEqual({ available: start0.available - 10_000, pending: start0.pending });
  });

  it("refuses a transfer above the available balance with 422 GATEWAY_INSUFFICIENT_BALANCE, in pt-BR", async () => {
    const nokyc = api(sandbox, "nokyc");
    const refused = await nokyc.post("/transfers", transferBody({ amount: 50 }));
    expect(refused.status).toBe(422);
    expect(refused.json).toEqual({
      statusCode: 422,
      errorCode: "GATEWAY_INSUFFICIENT_BALANCE",
      message: "Saldo disponível insuficiente para esta transferência: disponível R$ 0,00, necessário R$ 50,00",
    });
    const deposit = await nokyc.post("/pix/deposit", { amount: 1234.56 });
    await nokyc.controlClient().event(deposit.json.transactionId, "pay");
    // With the fee on the producer, the debit is amount + fee: 1234.56 is not enough for 1234.
    const noFeeRoom = await nokyc.post("/transfers", transferBody({ amount: 1234, discountFeeOfReceiver: false }));
    expect(noFeeRoom.status).toBe(422);
    expect(noFeeRoom.json.message).toBe(
      "Saldo disponível insuficiente para esta transferência: disponível R$ 1.234,56, necessário R$ 1.235,00",
    );
    expect(await nokyc.controlClient().withdraws()).toEqual([]);
    expect((await nokyc.post("/transfers", transferBody({ amount: 1234.56 }))).status).toBe(200);
    expect(await cents("nokyc")).toEqual({ available: 0, pending: 0 });
  });

  it("lets only one of two concurrent transfers spend the same money", async () => {
    const nokyc = api(sandbox, "nokyc");
    const deposit = await nokyc.post("/pix/deposit", { amount: 100 });
    await nokyc.controlClient().event(deposit.json.transactionId, "pay");
    const results = await Promise.all([
      nokyc.post("/transfers", transferBody({ amount: 80 })),
      nokyc.post("/transfers", transferBody({ amount: 80 })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(await cents("nokyc")).toEqual({ available: 2000, pending: 0 });
  });
});

describe("balance: releases and settings", () => {
  it("groups future releases by São Paulo day: a payment at 23:30 there is released on that day's date 30 days later", async () => {
    const day = saoPauloDay(ago(10 * DAY));
    const late = await dated("nokyc", `${day}T23:30:00-03:00`, "POST", "/api/v1/gateway/card/receive", cardBody({ amount: 100 }));
    const morning = await dated("nokyc", `${day}T10:00:00-03:00`, "POST", "/api/v1/gateway/card/receive", cardBody({ amount: 40 }));
    const dayBefore = await dated(
      "nokyc",
      `${dayPlus(day, -1)}T21:15:00-03:00`,
      "POST",
      "/api/v1/gateway/card/receive",
      cardBody({ amount: 60 }),
    );
    // 23:30 in São Paulo is 02:30 UTC the next day: the release is dated by São Paulo's calendar.
    expect((await record("nokyc", late.json.transactionId)).availableAt).toBe(`${dayPlus(day, 31)}T02:30:00.000Z`);
    const b = await balance("nokyc");
    expect(b.releases).toEqual([
      { date: dayPlus(day, 29), amount: netOf(60, dayBefore.json) / 100 },
      { date: dayPlus(day, 30), amount: (netOf(100, late.json) + netOf(40, morning.json)) / 100 },
    ]);
    expect(toCents(b.pending)).toBe(netOf(100, late.json) + netOf(40, morning.json) + netOf(60, dayBefore.json));
  });

  it("takes release days from the producer's settings, over SANDBOX_RELEASE_DAYS, over the defaults", async () => {
    const demo = api(sandbox, "demo");
    expect((await demo.controlClient().settings()).releaseDays).toEqual({ pix: 0, boleto: 1, card: 30, crypto: 0, deposit: 0 });
    const saved = process.env.SANDBOX_RELEASE_DAYS;
    process.env.SANDBOX_RELEASE_DAYS = "pix=2,card=20";
    try {
      expect((await demo.controlClient().settings()).releaseDays).toMatchObject({ pix: 2, card: 20 });
      const settings = await demo.control("PUT", "/settings", { releaseDays: { card: 14 } });
      expect(settings.json).toEqual({ webhookUrl: null, releaseDays: { pix: 2, boleto: 1, card: 14, crypto: 0, deposit: 0 } });
      const card = await demo.post("/card/receive", cardBody());
      const tx = await record("demo", card.json.transactionId);
      expect(tx.availableAt).toBe(plus(tx.payedAt, 14 * DAY));
      const pix = await demo.post("/pix/receive", pixBody());
      const paid = await demo.controlClient().event(pix.json.transactionId, "pay");
      expect(paid.availableAt).toBe(plus(paid.payedAt as string, 2 * DAY));
      // A release keeps the date it was given at payment, whatever the settings say later.
      await demo.controlClient().setReleaseDays({ card: 30 });
      expect((await record("demo", card.json.transactionId)).availableAt).toBe(tx.availableAt);
      expect((await demo.control("PUT", "/settings", { releaseDays: { card: 366 } })).status).toBe(400);
    } finally {
      if (saved === undefined) delete process.env.SANDBOX_RELEASE_DAYS;
      else process.env.SANDBOX_RELEASE_DAYS = saved;
    }
  });
});

describe("opening balance", () => {
  // Each starts a database of its own: slow on a busy 2-core machine.
  it("starts the seeded producers with R$ 50.000,00 available by default", async () => {
    const defaults = await start();
    try {
      expect((await api(defaults).control("GET", "/balance")).json).toEqual({
        currency: "BRL",
        available: 50_000,
        pending: 0,
        releases: [],
      });
    } finally {
      await defaults.close();
    }
  }, 120_000);

  it("takes the opening from SANDBOX_OPENING_BALANCE", async () => {
    const saved = process.env.SANDBOX_OPENING_BALANCE;
    process.env.SANDBOX_OPENING_BALANCE = "1234.5";
    try {
      const configured = await start();
      try {
        expect((await api(configured, "company").controlClient().balance()).available).toBe(1234.5);
      } finally {
        await configured.close();
      }
    } finally {
      if (saved === undefined) delete process.env.SANDBOX_OPENING_BALANCE;
      else process.env.SANDBOX_OPENING_BALANCE = saved;
    }
  }, 120_000);

  it("creates a producer that starts at 0", async () => {
    const opened = await openDatabase({ dataDir: "memory://" });
    try {
      const created = await createProducer(opened.db, { ...SEED_PRODUCERS[0], id: "prod_zero", publicKey: "pk_zero" }, 0);
      expect(await balanceAt(opened.db, created.id, new Date())).toEqual({ currency: "BRL", available: 0, pending: 0, releases: [] });
    } finally {
      await opened.close();
    }
  }, 120_000);

  it("gives the producers of a data directory from before the balance their opening, and keeps old records' availableAt", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "sandbox-balance-"));
    const migrations = mkdtempSync(path.join(tmpdir(), "sandbox-migrations-"));
    try {
      // The migrations as they were before the balance (0000, 0001).
      cpSync(fileURLToPath(new URL("../db/migrations", import.meta.url)), migrations, { recursive: true });
      const journalPath = path.join(migrations, "meta/_journal.json");
      const journal = JSON.parse(readFileSync(journalPath, "utf8"));
      journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < "0002");
      writeFileSync(journalPath, JSON.stringify(journal));
      const client = new PGlite(dataDir);
      await migrate(drizzle(client), { migrationsFolder: migrations });
      await client.query(
        `insert into producers (id, name, email, phone, public_key, secret_key, webhook_token, created_at)
         values ('prod_demo', 'Loja Demo Sandbox', 'demo@sandbox.test', '11987654321', 'pk_sandbox_demo', 'sk_sandbox_demo', 'wht_sandbox_demo', '2025-01-02T03:04:05Z')`,
      );
      await client.query(
        `insert into transactions (id, producer_id, kind, client_identifier, order_id, status, payment_method, amount_cents, fee_cents, response, created_at, payed_at)
         values ('tx_old', 'prod_demo', 'card', 'old-1', 'ord_old', 'COMPLETED', 'CREDIT_CARD', 10000, 438, '{}', '2025-03-01T12:00:00Z', '2025-03-01T12:00:00Z')`,
      );
      await client.close();

      const upgraded = await start({ dataDir });
      try {
        expect(await api(upgraded).controlClient().balance()).toEqual({ currency: "BRL", available: 50_000, pending: 0, releases: [] });
        expect((await api(upgraded).get("/transactions?id=tx_old")).json.availableAt).toBe("2025-03-31T12:00:00.000Z");
      } finally {
        await upgraded.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(migrations, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(!(await postgresReachable()))("balance on Postgres", () => {
  it("lets only one of concurrent transfers spend the same money (producer lock across connections)", async () => {
    await withPostgresDatabase(async (url) => {
      const pgSandbox = await start({ databaseUrl: url, openingBalance: 100 });
      try {
        const demo = api(pgSandbox);
        const results = await Promise.all(Array.from({ length: 6 }, () => demo.post("/transfers", transferBody({ amount: 40 }))));
        expect(results.filter((r) => r.status === 200)).toHaveLength(2);
        expect(results.filter((r) => r.status === 422).every((r) => r.json.errorCode === "GATEWAY_INSUFFICIENT_BALANCE")).toBe(true);
        expect((await demo.controlClient().balance()).available).toBe(20);
      } finally {
        await pgSandbox.close();
      }
    });
  }, 60_000);
});
