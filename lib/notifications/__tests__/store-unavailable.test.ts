import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/db/client";
import { storeNotification } from "@/lib/notifications/store";

describe("the webhook store when the database cannot be opened", () => {
  afterAll(() => closeDb());

  it("fails the waiting deliveries (the receiver answers 5xx and the gateway retries) instead of leaving them unanswered", async () => {
    await closeDb();
    // Nothing listens on port 9 (discard): the connection is refused at once.
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:9/nowhere";
    const input = {
      accountId: "acc_1",
      receivedAt: new Date(),
      sourceIp: null,
      kind: "unknown" as const,
      dedupeKey: "u1:x",
      event: null,
      gatewayTransactionId: null,
      identifier: null,
      status: null,
      paymentMethod: null,
      amountCents: null,
      payload: {},
      notification: null,
    };
    const outcomes = await Promise.allSettled([storeNotification(input), storeNotification({ ...input, dedupeKey: "u1:y" })]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
  });
});
