import "server-only";
import { sql } from "drizzle-orm";
import { getDbDriver, type Database } from "./client";

type Driver = "pglite" | "postgres";

/**
 * What the open database can do, named for the callers that depend on it, so the difference
 * between the embedded database (PGlite) and a Postgres server stays inside lib/db.
 */
export type DatabaseCapabilities = {
  /** Several console processes may use it at once (the embedded database belongs to one process). */
  sharedByProcesses: boolean;
  /** pg_notify reaches every console process at commit (each listens on a connection of its own). */
  notifiesOtherProcesses: boolean;
  /** The database lives in this process only: a signal made in a transaction is emitted here, after the commit. */
  emitsLocally: boolean;
  /** Writers that may run at once (the embedded database has a single connection). */
  concurrentWriters: (wanted: number) => number;
  /** The planner may pick a bitmap scan for an ordered, limited read, and `enable_bitmapscan` turns that off (tuneApplierQuery). */
  plansBitmapScans: boolean;
};

const POSTGRES: DatabaseCapabilities = {
  sharedByProcesses: true,
  notifiesOtherProcesses: true,
  emitsLocally: false,
  concurrentWriters: (wanted) => wanted,
  plansBitmapScans: true,
};
const EMBEDDED: DatabaseCapabilities = {
  sharedByProcesses: false,
  notifiesOtherProcesses: false,
  emitsLocally: true,
  concurrentWriters: () => 1,
  plansBitmapScans: false,
};

/** Without an await, for a handle already open (lib/db/client.ts rawDatabase()). */
export function capabilitiesOf(handle: { driver: Driver }): DatabaseCapabilities {
  return handle.driver === "postgres" ? POSTGRES : EMBEDDED;
}

export async function databaseCapabilities(): Promise<DatabaseCapabilities> {
  return capabilitiesOf({ driver: await getDbDriver() });
}

/**
 * The applier reads the pending index in order, stopping after its batch. A bitmap scan (what
 * Postgres's planner picks on a young table) visited every entry of already applied rows on
 * every batch; the embedded database plans it well and has no such setting to spare.
 */
export async function tuneApplierQuery(tx: Pick<Database, "execute">, database: DatabaseCapabilities): Promise<void> {
  if (database.plansBitmapScans) await tx.execute(sql`set local enable_bitmapscan = off`);
}
