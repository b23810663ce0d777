import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { guardConnections } from "@/lib/db/connection-guard";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";

// pg_terminate_backend: the Postgres server only.
const targets = (await testDatabases()).filter((t) => t.url);

async function terminate(url: string, pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query("select pg_terminate_backend($1)", [pid]);
  } finally {
    await admin.end();
  }
}

describe.each(targets)("a pool's connections ended by the server, on $name", (target: TestDatabase) => {
  afterAll(() => target.drop());

  it("a checked-out connection that dies neither ends the process nor keeps its slot; the holder's own release does nothing", async () => {
    const pool = new pg.Pool({ connectionString: target.url, max: 1 });
    guardConnections(pool);
    try {
      // Held as the ORM holds it when BEGIN fails: checked out, and never released by its holder.
      const held = await pool.connect();
      const { rows } = await held.query<{ pid: number }>("select pg_backend_pid() as pid");
      const lost = new Promise((resolve) => held.once("error", resolve));
      await terminate(target.url!, rows[0]!.pid);
      await lost;
      await expect(held.query("select 1")).rejects.toThrow();

      // The pool's only slot is free again: a query gets a new connection.
      const next = await Promise.race([
        pool.query<{ one: number }>("select 1 as one"),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the pool ran dry")), 5_000)),
      ]);
      expect(next.rows[0]!.one).toBe(1);
      expect(() => held.release()).not.toThrow();

      // An idle connection that dies is dropped and replaced too.
      const { rows: idle } = await pool.query<{ pid: number }>("select pg_backend_pid() as pid");
      await terminate(target.url!, idle[0]!.pid);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await pool.query<{ one: number }>("select 1 as one")).rows[0]!.one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
