import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import readline from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { destinationAttempts, destinationDeliveries, ledgerTransactions } from "@/lib/db/schema";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";
import { backgroundWorkerArgs } from "@/scripts/run/background-worker-command.mjs";
import { startReceiver } from "@/lib/testing/webhook-receiver";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

// Processes killed with SIGKILL and processes side by side: a database server they share.
const targets = (await testDatabases()).filter((t) => t.url);
let secret: string | null = null;
const receiver = await startReceiver(() => secret);
afterAll(() => receiver.close());

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

/** The console's background worker (`npm run worker`), as `npm start` runs it on Postgres. */
async function startWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, backgroundWorkerArgs(process.cwd()), {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NODE_ENV: "production",
      RECONCILER: "",
      WORKER_NICE: "0",
      RECONCILE_INTERVAL_MS: "200",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const lines = readline.createInterface({ input: child.stdout! });
  for await (const line of lines) if (line.includes('"ready":true')) return child;
  throw new Error("the worker did not start");
}

async function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL") {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(targets)("destination workers on $name", (target: TestDatabase) => {
  bindDatabase(target);
  let accountId: string;

  async function setup() {
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount({ name: "Loja", baseUrl: "https://gw.example", publicKey: "pk", secretKey: "sk_1234567890", mode: "test" }, null)
    ).id;
    const { createDestination } = await import("../queries");
    const created = await createDestination(
      accountId,
      { url: receiver.url, allTypes: false, eventTypes: ["charge.created"] },
      { id: "u1", email: "admin@example.test" },
      null,
    );
    secret = created.secret;
  }

  async function confirmedCharges(count: number): Promise<string[]> {
    const db = await getDb();
    const rows = Array.from({ length: count }, () => ({
      accountId,
      kind: "pix_charge" as const,
      identifier: `ord-${randomUUID()}`,
      origin: "console" as const,
      submission: "SUBMITTED" as const,
      status: "OK",
      statusSource: "creation" as const,
    }));
    await db.insert(ledgerTransactions).values(rows);
    return rows.map((r) => r.identifier);
  }

  it("a worker killed mid-send: after restart the event is delivered, under the same webhook-id", { timeout: 90_000 }, async () => {
    await setup();
    receiver.answer("hang");
    const env = { DESTINATION_LEASE_MS: "1500" };
    const first = await startWorker(target.url!, env);
    const [identifier] = await confirmedCharges(1);
    const sent = await until(
      () => receiver.received.filter((r) => r.body.includes(identifier!)),
      (r) => r.length >= 1,
    );
    expect(sent).toHaveLength(1);
    await kill(first);
    receiver.release();

    const second = await startWorker(target.url!, env);
    const all = await until(
      () => receiver.received.filter((r) => r.body.includes(identifier!)),
      (r) => r.length >= 2,
    );
    await kill(second, "SIGTERM");
    expect(all.map((r) => r.id)).toEqual([sent[0]!.id, sent[0]!.id]);
    expect(all[1]!.verified).toMatchObject({ type: "charge.created", data: { identifier } });

    const db = await getDb();
    const attempts = await db
      .select()
      .from(destinationAttempts)
      .where(eq(destinationAttempts.eventId, sent[0]!.id))
      .orderBy(destinationAttempts.attempt);
    // The killed attempt stays in the log as started with no answer; the next one was answered.
    expect(attempts.map((a) => [a.attempt, a.httpStatus])).toEqual([
      [1, null],
      [2, 200],
    ]);
    const [delivery] = await db.select().from(destinationDeliveries).where(eq(destinationDeliveries.eventId, sent[0]!.id));
    expect(delivery!.state).toBe("delivered");
  });

  it("two workers on one Postgres never send the same attempt twice", { timeout: 120_000 }, async () => {
    receiver.setFallback({ status: 200 });
    const workers = await Promise.all([startWorker(target.url!), startWorker(target.url!)]);
    const before = receiver.received.length;
    const identifiers = new Set(await confirmedCharges(400));
    const got = await until(
      () =>
        receiver.received
          .slice(before)
          .filter((r) => identifiers.has((r.verified as { data?: { identifier?: string } } | null)?.data?.identifier ?? "")),
      (r) => r.length >= identifiers.size,
      60_000,
    );
    // A moment more: a second send of any of them would show now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await Promise.all(workers.map((w) => kill(w, "SIGTERM")));
    const mine = receiver.received
      .slice(before)
      .filter((r) => identifiers.has((r.verified as { data?: { identifier?: string } } | null)?.data?.identifier ?? ""));
    expect(got.length).toBe(400);
    expect(mine).toHaveLength(400);
    expect(new Set(mine.map((r) => r.id)).size).toBe(400);
    const db = await getDb();
    const ids = JSON.stringify(mine.map((r) => r.id));
    const result =
      await db.execute(sql`select count(*)::int as attempts, count(distinct delivery_id)::int as deliveries from destination_attempts
        where event_id in (select jsonb_array_elements_text(${ids}::jsonb))`);
    const [counts] = (result as unknown as { rows: { attempts: number; deliveries: number }[] }).rows;
    expect(counts!.deliveries).toBe(400);
    expect(counts!.attempts).toBe(counts!.deliveries);
  });
});
