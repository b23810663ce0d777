import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, openDatabase } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";
import { useDatabase } from "@/lib/testing/databases";
import { backupToken } from "@/lib/backup/token";
import { restorePglite } from "@/lib/backup/pglite";

const secret = randomBytes(32).toString("base64url");
process.env.NEXTAUTH_SECRET = secret;
process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

const work = mkdtempSync(path.join(tmpdir(), "console-backup-test-"));
const liveDir = path.join(work, "console-db");

/** One write: two audit rows of one target in one transaction, so a half-done copy would show a lone row. */
async function writePair(n: number): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    for (const half of ["a", "b"]) await tx.insert(auditLog).values({ action: "backup.test", target: `pair-${n}`, details: { half } });
  });
}

describe("a backup of a live embedded database (PGlite)", () => {
  beforeAll(async () => {
    await closeDb();
    useDatabase({ name: "pglite-dir", pgliteDir: liveDir, drop: async () => {} });
  });
  afterAll(async () => {
    await closeDb();
    rmSync(work, { recursive: true, force: true });
  });

  it(
    "taken through the console's route while writes go on, restores into a fresh directory with every committed write and no half-done one",
    { timeout: 180_000 },
    async () => {
      const { POST } = await import("@/app/api/admin/backup/route");
      await writePair(-1);

      let committed = 0;
      let stop = false;
      // Writes in a loop, each in its own macrotask (as requests arrive), during the whole backup.
      const writer = (async () => {
        while (!stop) {
          await writePair(committed);
          committed++;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      while (committed < 20) await new Promise((resolve) => setTimeout(resolve, 10));

      const refused = await POST(
        new Request("http://localhost/api/admin/backup", {
          method: "POST",
          headers: { authorization: `Bearer ${backupToken("not the secret")}` },
        }),
      );
      expect(refused.status).toBe(401);
      const stale = await POST(
        new Request("http://localhost/api/admin/backup", {
          method: "POST",
          headers: { authorization: `Bearer ${backupToken(secret, Date.now() - 5 * 60_000)}` },
        }),
      );
      expect(stale.status).toBe(401);

      const before = committed;
      const response = await POST(
        new Request("http://localhost/api/admin/backup", { method: "POST", headers: { authorization: `Bearer ${backupToken(secret)}` } }),
      );
      const after = committed;
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/gzip");
      const archive = new Uint8Array(await response.arrayBuffer());
      // The writer keeps going after the copy: none of that may be in it.
      while (committed < after + 10) await new Promise((resolve) => setTimeout(resolve, 10));
      stop = true;
      await writer;

      const restoredDir = path.join(work, "restored", "console-db");
      const result = await restorePglite(archive, restoredDir);
      expect(result.tables).toBeGreaterThan(10);
      expect(readdirSync(path.dirname(restoredDir))).toEqual(["console-db"]);
      // Restoring over a database is refused unless asked for.
      await expect(restorePglite(archive, restoredDir)).rejects.toThrow(/not empty/);

      const restored = await openDatabase({ pgliteDir: restoredDir });
      try {
        const pairs = await restored.query<{ target: string; n: number }>(
          "select target, count(*)::int as n from audit_log where action = 'backup.test' group by target",
          [],
        );
        const halves = pairs.filter((row) => row.n !== 2);
        expect(halves).toEqual([]);
        // Every write committed before the request is in the copy; none made after the answer is.
        expect(pairs.length - 1).toBeGreaterThanOrEqual(before);
        expect(pairs.length - 1).toBeLessThanOrEqual(after + 1);
        const [audit] = await restored.query<{ n: number }>(
          "select count(*)::int as n from audit_log where action = 'database.backup'",
          [],
        );
        expect(audit.n).toBe(1);
        const [migrations] = await restored.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations", []);
        expect(migrations.n).toBeGreaterThan(0);
        // The copy is a working database, not only readable files.
        await restored.query("insert into audit_log (action, target) values ('backup.test.after-restore', 'x')", []);
        console.log(
          `backup of a live PGlite database: ${(archive.length / 1024 / 1024).toFixed(1)} MB; ${before} writes committed before the request, ${after} when it answered, ${pairs.length - 1} in the copy, ${committed} in the end`,
        );
      } finally {
        await restored.close();
      }
    },
  );
});
