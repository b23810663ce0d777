import { afterAll, beforeAll } from "vitest";
import { closeDb } from "@/lib/db/client";
import { useDatabase, type TestDatabase } from "./databases";

/** Inside a describe block: the process-wide database is `target` for the block, dropped after it. */
export function bindDatabase(target: TestDatabase) {
  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });
}
