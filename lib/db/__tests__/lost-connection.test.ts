import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { testDatabases } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";

const server = (await testDatabases()).filter((target) => target.url);

describe.skipIf(server.length === 0).each(server)("a database connection ended by the server on $name", (target) => {
  bindDatabase(target);

  it("is dropped from the pool without an uncaught error, and the next query opens a new one", async () => {
    const db = await getDb();
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
    const [{ pid }] = await rows(sql`select pg_backend_pid() as pid`);
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      // The connection is idle in the pool now; ending it from another session is what a restart does.
      const admin = new (await import("pg")).default.Client({ connectionString: target.url });
      await admin.connect();
      await admin.query("select pg_terminate_backend($1)", [pid]);
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [{ one }] = await rows(sql`select 1 as one`);
      expect(one).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
      await closeDb();
    }
  });
});
