/**
 * `npm run backup -- --out backups/console-2026-11-26.tar.gz`: a consistent copy of the running
 * console's embedded database (PGlite), taken by the console itself (POST /api/admin/backup,
 * authorized by a one-minute token signed with the session secret; see lib/backup/).
 *
 *   --out <file>       where to write it (default backups/console-<date>.tar.gz)
 *   --console <url>    the running console (default APP_URL, else http://127.0.0.1:$PORT)
 * The session secret: NEXTAUTH_SECRET, else DATA_DIR/auth.secret (what `npm start` generates).
 * On Postgres (DATABASE_URL) the console refuses: use pg_dump (see docs/operations.md).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { backupToken } from "../../lib/backup/token";

const { values } = parseArgs({ options: { out: { type: "string" }, console: { type: "string" } } });
const out = path.resolve(values.out ?? path.join("backups", `console-${new Date().toISOString().slice(0, 10)}.tar.gz`));
const base = (values.console ?? process.env.APP_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");

function sessionSecret(): string {
  const fromEnv = process.env.NEXTAUTH_SECRET ?? process.env.AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(path.resolve(process.env.DATA_DIR ?? ".data"), "auth.secret");
  if (!existsSync(file)) throw new Error(`no NEXTAUTH_SECRET and no ${file}: run this with the console's environment`);
  return readFileSync(file, "utf8").trim();
}

async function main(): Promise<void> {
  const started = Date.now();
  let response: Response;
  try {
    response = await fetch(`${base}/api/admin/backup`, {
      method: "POST",
      headers: { authorization: `Bearer ${backupToken(sessionSecret())}` },
    });
  } catch (error) {
    throw new Error(
      `the console does not answer at ${base} (${(error as Error).message}). A backup is taken by the running console; ` +
        "with the console stopped, a copy of its data directory (DATA_DIR/console-db) is a backup too.",
    );
  }
  if (!response.ok) throw new Error(`the console answered ${response.status}: ${await response.text()}`);
  const archive = Buffer.from(await response.arrayBuffer());
  mkdirSync(path.dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  try {
    writeFileSync(partial, archive, { mode: 0o600 });
    renameSync(partial, out);
  } finally {
    rmSync(partial, { force: true });
  }
  console.log(`backup: ${out} (${(archive.length / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error) => {
  console.error(`backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
});
