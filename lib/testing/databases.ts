import { randomBytes } from "node:crypto";
import pg from "pg";

export type TestDatabase = { name: string; url?: string; pgliteDir?: string; drop: () => Promise<void> };

/** PGlite in memory always; a throw-away database on TEST_DATABASE_URL's server when it is set. */
export async function testDatabases(): Promise<TestDatabase[]> {
  const targets: TestDatabase[] = [{ name: "pglite", pgliteDir: "memory://", drop: async () => {} }];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const dbName = `console_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    targets.push({
      name: "postgres",
      url: url.toString(),
      drop: async () => {
        const client = new pg.Client({ connectionString: serverUrl });
        await client.connect();
        await client.query(`drop database if exists ${dbName} with (force)`);
        await client.end();
      },
    });
  }
  return targets;
}

/** Points the process-wide database handle at `target` (the queries read it from the environment). */
export function useDatabase(target: TestDatabase) {
  if (target.url) {
    process.env.DATABASE_URL = target.url;
    delete process.env.PGLITE_DIR;
  } else {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = target.pgliteDir;
  }
}
