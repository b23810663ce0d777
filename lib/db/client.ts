import "server-only";
import path from "node:path";
import { mkdirSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/lib/env";
import { guardConnections } from "./connection-guard";
import * as schema from "./schema";

/**
 * What `execute` answers on both drivers (node-postgres' QueryResult and PGlite's Results both
 * carry `rows`), so `db.execute<Row>(sql)` is typed without a cast.
 */
type RowsResult<Row> = { rows: Row[] };
interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this["row"]>;
}

export type Database = PgDatabase<RowsResultHKT, typeof schema>;
/** The transaction `Database.transaction` hands its callback. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * One SQL statement with positional parameters, straight to the driver: rows as it returns them.
 * A `name` makes it a prepared statement on Postgres (parsed and planned once per connection).
 */
export type RawQuery = <T>(text: string, params: unknown[], name?: string) => Promise<T[]>;

type Unlisten = () => Promise<void>;

type Handle = {
  db: Database;
  close: () => Promise<void>;
  driver: "pglite" | "postgres";
  query: RawQuery;
  /** Set for the embedded database only; LISTEN inside it (its notifications never leave this process). */
  embedded?: PGlite;
};

const MIGRATIONS_FOLDER = path.join(process.cwd(), "lib/db/migrations");
/** Any constant works; it only has to be the same in every console process. */
const MIGRATION_LOCK_ID = 727_001;

/** The node-postgres pool of every console process (a benchmark's stand-in for one uses it too). */
export function poolOptions() {
  return {
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    // A new connection is a cold backend (its plans, trigger functions and caches made again): after
    // node-postgres' 10 s, a burst of confirmations after a quiet moment met them and its events
    // reached producers' systems seconds late. Kept for minutes on a long-running host; 10 s on
    // Vercel, where a frozen function would hold them. Idle connections never keep a process alive.
    idleTimeoutMillis: Number(process.env.DATABASE_POOL_IDLE_MS ?? (process.env.VERCEL ? 10_000 : 300_000)),
    allowExitOnIdle: true,
  };
}

async function openPostgres(url: string): Promise<Handle> {
  const { Pool } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new Pool({ connectionString: url, ...poolOptions() });
  guardConnections(pool);
  const db = drizzle(pool, { schema });
  const lock = await pool.connect();
  try {
    // Several console processes may start together against one database.
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    lock.release();
  }
  const query: RawQuery = async <T>(text: string, params: unknown[], name?: string) =>
    (await pool.query({ name, text, values: params })).rows as T[];
  return { db, close: () => pool.end(), driver: "postgres", query };
}

async function openPglite(dir: string): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (dir !== "memory://") mkdirSync(dir, { recursive: true });
  // pg_trgm backs the transactions search index (migration 0004).
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const client = dir === "memory://" ? new PGlite({ extensions: { pg_trgm } }) : new PGlite(dir, { extensions: { pg_trgm } });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  const query: RawQuery = async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows;
  return { db, close: () => client.close(), driver: "pglite", query, embedded: client };
}

export function openDatabase(options: { url?: string; pgliteDir?: string }): Promise<Handle> {
  return options.url ? openPostgres(options.url) : openPglite(options.pgliteDir ?? "memory://");
}

// One handle per process, kept on globalThis so dev-mode module reloads reuse it
// (PGlite allows a single process per data directory).
const globalKey = Symbol.for("merchant-console.db");
/** The same handle once it is open, for callers that must not await. */
const openKey = Symbol.for("merchant-console.db-open");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<Handle>; [openKey]?: Handle };

function handle(): Promise<Handle> {
  const g = globalThis as GlobalWithDb;
  if (!g[globalKey]) {
    // A handle closed (closeDb) while it was opening is not published.
    const opening: Promise<Handle> = openDatabase({ url: env.databaseUrl, pgliteDir: env.pgliteDir }).then(
      (opened) => {
        if (g[globalKey] === opening) g[openKey] = opened;
        return opened;
      },
      (error) => {
        if (g[globalKey] === opening) delete g[globalKey];
        throw error;
      },
    );
    g[globalKey] = opening;
  }
  return g[globalKey];
}

/**
 * The driver and its plain query function, without an await once the database is open: for the
 * webhook receiver's hot path, where every promise costs (the ORM builds nothing there either).
 */
export function rawDatabase(): Pick<Handle, "driver" | "query"> | Promise<Pick<Handle, "driver" | "query">> {
  return (globalThis as GlobalWithDb)[openKey] ?? handle();
}

export async function getDb(): Promise<Database> {
  return (await handle()).db;
}

/** Subscribes to NOTIFY on the embedded database; null on Postgres, where lib/feed/bus.ts listens on a connection of its own. */
export async function listenEmbedded(channel: string, listener: () => void): Promise<Unlisten | null> {
  const opened = await handle();
  return opened.embedded ? opened.embedded.listen(channel, () => listener()) : null;
}

/** The embedded database's own client (for a consistent copy of its directory); null on Postgres. */
export async function embeddedClient(): Promise<PGlite | null> {
  return (await handle()).embedded ?? null;
}

export async function getDbDriver(): Promise<Handle["driver"]> {
  return (await handle()).driver;
}

export async function closeDb(): Promise<void> {
  const g = globalThis as GlobalWithDb;
  const current = g[globalKey];
  delete g[globalKey];
  delete g[openKey];
  if (current) await (await current).close();
}
