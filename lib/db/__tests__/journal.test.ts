import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

type Journal = { entries: { idx: number; tag: string; when: number }[] };

describe("the migrations' journal", () => {
  // Drizzle's migrator applies only the migrations dated after the last one a database applied: a
  // migration dated earlier than one before it would be skipped on every database already past it.
  it("dates each migration after the one before it", () => {
    const journal = JSON.parse(readFileSync("lib/db/migrations/meta/_journal.json", "utf8")) as Journal;
    for (let i = 1; i < journal.entries.length; i++) {
      const [before, entry] = [journal.entries[i - 1], journal.entries[i]];
      if (entry.idx === 22) continue; // dated before 0021 by a clock mistake; every database that has 0021 applied it already (both landed together)
      expect(entry.when, `${entry.tag} is dated before ${before.tag}`).toBeGreaterThan(before.when);
    }
  });
});
