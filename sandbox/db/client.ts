import path from "node:path";
import { fileURLToPath } from "node:url";
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";

export type SandboxDb = PgDatabase<PgQueryResultHKT, typeof schema>;

export type OpenedDb = {
  db: SandboxDb;
  driver: "pglite" | "postgres";
  close(): Promise<void>;
};

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * A connection killed by the server (a restart, pg_terminate_backend) emits 'error', which with no
 * listener ends the process; the pool listens on idle connections only. Each connection gets its
 * own listener, and one lost while checked out is given back at once as broken: drizzle's
 * transaction sends BEGIN outside its try/finally and would otherwise keep the slot forever.
 * (The console's pool does the same: lib/db/connection-guard.ts; the sandbox shares only lib/br.)
 */
function guardConnections(pool: pg.Pool): void {
  const checkedOut = new Set<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_error, client) => checkedOut.delete(client));
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      console.error(`[sandbox] postgres connection lost: ${error.message}`);
      if (!checkedOut.has(client)) return;
      const release = client.release.bind(client);
      client.release = () => {};
      release(error);
    }),
  );
  pool.on("error", () => {
    // logged by the connection's own listener
  });
}

/**
 * Opens the sandbox database and applies the committed migrations.
 * `databaseUrl` wins over `dataDir`; `dataDir: "memory://"` is an in-memory PGlite.
 */
export async function openDatabase(opts: { dataDir?: string; databaseUrl?: string }): Promise<OpenedDb> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    guardConnections(pool);
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { db, driver: "postgres", close: () => pool.end() };
  }
  const dataDir = opts.dataDir ?? ".data/sandbox";
  const inMemory = dataDir === "memory://";
  const releaseLock = inMemory ? () => undefined : lockDataDir(dataDir);
  try {
    const client = new PGlite(inMemory ? undefined : dataDir);
    await client.waitReady;
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    return {
      db,
      driver: "pglite",
      close: async () => {
        try {
          await client.close();
        } finally {
          releaseLock();
        }
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** PGlite must never be opened by two processes at once: a pid file guards the directory. */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "sandbox.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileSync(lockPath, "utf8").trim());
      if (owner && owner !== process.pid && processAlive(owner)) {
        throw new Error(`Sandbox data directory ${dataDir} is in use by process ${owner}`);
      }
      if (owner === process.pid) throw new Error(`Sandbox data directory ${dataDir} is already open in this process`);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock sandbox data directory ${dataDir}`);
}
