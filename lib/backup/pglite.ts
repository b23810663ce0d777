import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Backup and restore of the embedded database (PGlite). PGlite is one process per data
 * directory, so a copy of a running console's database is taken by that process: the files are
 * read while no transaction is open and no query runs (PGlite's own locks, which every query and
 * transaction of this process takes), right after a checkpoint. Even without those locks such a
 * copy would be what a power cut leaves on disk, which Postgres starts from by replaying its
 * write-ahead log at the first start of the restored copy: every transaction committed before the
 * copy is in it, none that was half-done.
 */

/**
 * A gzip tarball of the whole data directory, taken from the running client. Queries wait while
 * the files are read (a plain tar: compressing happens after, off the lock, on libuv's threads).
 */
export async function backupPglite(client: PGlite): Promise<Buffer> {
  // Not needed for correctness (recovery replays the log); it keeps that replay short.
  await client.exec("checkpoint");
  const tar = await client._runExclusiveTransaction(() => client.dumpDataDir("none"));
  return promisify(gzip)(Buffer.from(await tar.arrayBuffer()), { level: 6 });
}

export type RestoreResult = { dir: string; previous: string | null; tables: number };

/**
 * Writes a backup into `dir` (the console must be stopped). A non-empty `dir` is kept beside it
 * as `<dir>.before-restore-<time>` only when `replace` is set; otherwise nothing is touched. The
 * copy is unpacked and started in a sibling directory first (recovery runs there), then renamed
 * into place: a failed restore leaves the current data as it was.
 */
export async function restorePglite(archive: Uint8Array, dir: string, options: { replace?: boolean } = {}): Promise<RestoreResult> {
  const target = path.resolve(dir);
  const occupied = existsSync(target) && readdirSync(target).length > 0;
  if (occupied && !options.replace)
    throw new Error(`${target} is not empty: stop the console and pass --replace to keep it aside and restore over it`);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const staging = `${target}.restoring-${stamp}`;
  mkdirSync(path.dirname(target), { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  let tables = 0;
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const tar = archive[0] === 0x1f && archive[1] === 0x8b ? await promisify(gunzip)(archive) : archive;
    const restored = new PGlite(staging, { loadDataDir: new Blob([new Uint8Array(tar)]), extensions: { pg_trgm } });
    try {
      const { rows } = await restored.query<{ n: number }>("select count(*)::int as n from pg_tables where schemaname = 'public'");
      tables = rows[0]?.n ?? 0;
      await restored.exec("checkpoint");
    } finally {
      await restored.close();
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  let previous: string | null = null;
  if (occupied) {
    previous = `${target}.before-restore-${stamp}`;
    renameSync(target, previous);
  } else {
    rmSync(target, { recursive: true, force: true });
  }
  renameSync(staging, target);
  return { dir: target, previous, tables };
}
