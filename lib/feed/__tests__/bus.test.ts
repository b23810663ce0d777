import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import {
  FEED_CHANNEL,
  listeningChannels,
  reconnectDelayMs,
  STORED_CHANNEL,
  stopFeedListener,
  subscribeFeed,
  subscribeSignal,
  subscribeStored,
} from "@/lib/feed/bus";
import type { FeedNotification } from "@/lib/feed/types";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";

// LISTEN/NOTIFY needs the Postgres server; PGlite's feed is in-process.
const targets = (await testDatabases()).filter((t) => t.url);

async function notify(url: string, channel: string, payload: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_notify($1, $2)", [channel, payload]);
  } finally {
    await client.end();
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.each(targets)("the feed bus on $name", (target: TestDatabase) => {
  afterAll(async () => {
    await stopFeedListener();
    await target.drop();
  });

  it("hears only the channels it has subscribers for, and a channel subscribed to later on the same connection", async () => {
    useDatabase(target);
    let stored = 0;
    const heard: FeedNotification[] = [];
    const unsubscribeStored = await subscribeStored(() => stored++);

    await notify(target.url!, STORED_CHANNEL, "");
    await notify(target.url!, FEED_CHANNEL, JSON.stringify({ id: "before" }));
    await settle();
    expect(stored).toBe(1);
    expect(listeningChannels()).toEqual([STORED_CHANNEL]);

    // A background process subscribes to stored signals only; it never parses the feed. Once a
    // stream subscribes, the feed is heard too.
    const unsubscribeFeed = await subscribeFeed((event) => heard.push(event));
    await notify(target.url!, FEED_CHANNEL, JSON.stringify({ id: "after" }));
    await settle();
    expect(heard.map((e) => e.id)).toEqual(["after"]);
    expect(listeningChannels()).toEqual([FEED_CHANNEL, STORED_CHANNEL].sort());

    unsubscribeFeed();
    unsubscribeStored();
  });

  it(
    "opens its LISTEN connection again when the server ends it, and wakes its signal subscribers once for what it may have missed",
    { timeout: 30_000 },
    async () => {
      useDatabase(target);
      let stored = 0;
      let signals = 0;
      const unsubscribeStored = await subscribeStored(() => stored++);
      const unsubscribeSignal = await subscribeSignal("bus_test_signal", () => signals++);
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      try {
        for (let cut = 0; cut < 3; cut++) {
          const { rows } = await admin.query<{ n: string }>(
            "select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
          );
          expect(Number(rows[0]!.n)).toBeGreaterThan(0);
          await new Promise((resolve) => setTimeout(resolve, 100));
          const before = { stored, signals };
          const deadline = Date.now() + 10_000;
          // Lost: nothing is heard until the connection is open again (after 0.5 s).
          expect(listeningChannels()).toEqual([]);
          while (!listeningChannels().includes("bus_test_signal") && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 50));
          expect(listeningChannels()).toEqual(expect.arrayContaining(["bus_test_signal", STORED_CHANNEL]));
          // Listening again: each subscriber was woken once, then hears new notifications.
          await settle();
          const woken = { stored, signals };
          expect(woken.stored).toBeGreaterThan(before.stored);
          expect(woken.signals).toBeGreaterThan(before.signals);
          await notify(target.url!, STORED_CHANNEL, "");
          await notify(target.url!, "bus_test_signal", "");
          await settle();
          expect({ stored, signals }).toEqual({ stored: woken.stored + 1, signals: woken.signals + 1 });
        }
      } finally {
        await admin.end();
        unsubscribeSignal();
        unsubscribeStored();
      }
    },
  );

  it("waits longer after each failed attempt, up to 30 s", () => {
    expect([0, 1, 2, 3, 6, 20].map(reconnectDelayMs)).toEqual([500, 1_000, 2_000, 4_000, 30_000, 30_000]);
  });
});
