import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import type { TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

// Embedded Postgres only: dropping a server database under this suite's pool raced its teardown
// (57P01 reported as an unhandled error); the rule is the same SQL on both.
const targets: TestDatabase[] = [{ name: "pglite", pgliteDir: "memory://", drop: async () => {} }];
const actor = { id: "system", email: "system@example.com" };

describe.each(targets)("last administrator on $name", (target: TestDatabase) => {
  bindDatabase(target);

  it("cannot be demoted or deactivated; once another admin exists, it can", async () => {
    const { createUser, LastAdminError, setUserActive, setUserRole } = await import("@/lib/users/queries");
    const db = await getDb();
    // Start from no active administrator but ours.
    await db.execute(sql`update users set active = false where role = 'admin'`);
    const first = await createUser(
      { email: `a-${Date.now()}@example.com`, name: "A", password: "correct horse battery", role: "admin", accountIds: [] },
      null,
    );
    await expect(setUserRole(first, "viewer", actor)).rejects.toBeInstanceOf(LastAdminError);
    await expect(setUserActive(first, false, actor)).rejects.toBeInstanceOf(LastAdminError);
    const second = await createUser(
      { email: `b-${Date.now()}@example.com`, name: "B", password: "correct horse battery", role: "admin", accountIds: [] },
      null,
    );
    await setUserRole(first, "operator", actor);
    await expect(setUserActive(second, false, actor)).rejects.toBeInstanceOf(LastAdminError);
    await setUserRole(first, "admin", actor);
    await setUserActive(second, false, actor);
  });
});
