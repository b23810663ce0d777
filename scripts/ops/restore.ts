/**
 * `npm run restore -- --from backups/console-2026-11-26.tar.gz`: puts a backup made by
 * `npm run backup` back as the console's embedded database. Run it with the console stopped.
 *
 *   --from <file>      the backup (gzip tarball)
 *   --data-dir <dir>   the database directory (default PGLITE_DIR, else DATA_DIR/console-db)
 *   --replace          an existing database there is kept aside as <dir>.before-restore-<time>
 *   --console <url>    checked not to answer before anything is touched (default APP_URL, else http://127.0.0.1:$PORT)
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { restorePglite } from "../../lib/backup/pglite";

const { values } = parseArgs({
  options: {
    from: { type: "string" },
    "data-dir": { type: "string" },
    replace: { type: "boolean", default: false },
    console: { type: "string" },
  },
});

async function consoleAnswers(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/sign-in`, { redirect: "manual", signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  if (!values.from) throw new Error("--from <backup file> is required");
  const dir = path.resolve(
    values["data-dir"] ?? process.env.PGLITE_DIR ?? path.join(path.resolve(process.env.DATA_DIR ?? ".data"), "console-db"),
  );
  const base = (values.console ?? process.env.APP_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
  // PGlite is one process per directory: restoring under a running console would corrupt both.
  if (await consoleAnswers(base)) throw new Error(`a console answers at ${base}: stop it first (its database is open)`);
  const started = Date.now();
  const result = await restorePglite(readFileSync(path.resolve(values.from)), dir, { replace: values.replace });
  console.log(`restored ${values.from} into ${result.dir} (${result.tables} tables) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.previous) console.log(`the database that was there is kept in ${result.previous}`);
}

main().catch((error) => {
  console.error(`restore failed: ${(error as Error).message}`);
  process.exitCode = 1;
});
