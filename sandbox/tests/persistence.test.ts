import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client";
import { webhookOutbox } from "../db/schema";
import { pixChargeResponseSchema } from "../../lib/gateway/schemas/charges";
import { transactionRecordSchema } from "../../lib/gateway/schemas/transactions";
import { api, cardBody, KEYS, pixBody, postgresReachable, start, startReceiver, withPostgresDatabase } from "./helpers";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("persistence (PGlite directory)", () => {
  it("keeps data across a restart and delivers outbox rows left pending", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "sandbox-persist-"));
    dirs.push(dataDir);
    let sandbox = await start({ dataDir });
    // PGlite allows one opener per directory: a second start is refused instead of corrupting it.
    await expect(start({ dataDir })).rejects.toThrow(/already open|in use/);
    const body = pixBody();
    const created = await api(sandbox).post("/pix/receive", body);
    await api(sandbox).controlClient().setWebhookUrl("http://127.0.0.1:9/default");
    await sandbox.close();

    const receiver = await startReceiver();
    try {
      // A row written while the sandbox was down (as if it crashed before delivering).
      const opened = await openDatabase({ dataDir });
      await opened.db.insert(webhookOutbox).values({
        producerId: "prod_demo",
        kind: "payment",
        event: "TRANSACTION_CREATED",
        transactionId: created.json.transactionId,
        url: receiver.url,
        payload: { event: "TRANSACTION_CREATED", token: KEYS.demo.webhookToken },
      });
      await opened.close();

      sandbox = await start({ dataDir });
      const demo = api(sandbox);
      const lookup = await demo.get(`/transactions?clientIdentifier=${body.identifier}`);
      expect(lookup.json.id).toBe(created.json.transactionId);
      const replay = await demo.post("/pix/receive", body);
      expect(replay.json).toEqual(created.json);
      expect(await demo.controlClient().settings()).toMatchObject({ webhookUrl: "http://127.0.0.1:9/default" });
      await receiver.waitFor((all) => all.length >= 1);
      await sandbox.close();
    } finally {
      await receiver.close();
    }
    // Three PGlite opens of a directory: slow on a busy 2-core machine.
  }, 120_000);
});

describe.skipIf(!(await postgresReachable()))("Postgres (node-postgres) smoke", () => {
  it("runs migrations, charges, webhooks and persistence on a fresh database", async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 503 : 200));
    try {
      await withPostgresDatabase(async (url) => {
        let sandbox = await start({ databaseUrl: url });
        const demo = api(sandbox);
        const bodies = Array.from({ length: 8 }, () => pixBody({ callbackUrl: receiver.url }));
        const same = pixBody();
        const results = await Promise.all([
          ...bodies.map((b) => demo.post("/pix/receive", b)),
          ...Array.from({ length: 8 }, () => demo.post("/pix/receive", same)),
        ]);
        results.forEach((r) => pixChargeResponseSchema.parse(r.json));
        expect(new Set(results.slice(8).map((r) => r.json.transactionId)).size).toBe(1);
        const card = await demo.post("/card/receive", cardBody());
        const refund = await demo.post("/producer/refunds", { transactionId: card.json.transactionId, reason: "r" });
        expect(refund.json.status).toBe("PENDING");
        expect((await demo.post("/producer/refunds", { transactionId: card.json.transactionId, reason: "r" })).status).toBe(422);
        await demo.controlClient().event(results[0].json.transactionId, "pay");
        await receiver.waitFor(
          (all) =>
            all.filter((h) => h.body.event === "TRANSACTION_CREATED").length >= 8 && all.some((h) => h.body.event === "TRANSACTION_PAID"),
        );
        await sandbox.close();

        sandbox = await start({ databaseUrl: url });
        const record = transactionRecordSchema.parse((await api(sandbox).get(`/transactions?id=${results[0].json.transactionId}`)).json);
        expect(record.status).toBe("COMPLETED");
        const deliveries = await api(sandbox).controlClient().deliveries({ transactionId: results[0].json.transactionId });
        expect(deliveries.length).toBeGreaterThanOrEqual(2);
        await sandbox.close();
      });
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
