import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { FEED_CHANNEL, listeningChannels, STORED_CHANNEL, stopFeedListener, subscribeFeed, subscribeStored } from "@/lib/feed/bus";
import type { FeedEvent } from "@/lib/feed/types";
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
    const heard: FeedEvent[] = [];
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
});
