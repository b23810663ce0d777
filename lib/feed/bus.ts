import "server-only";
import { EventEmitter } from "node:events";
import { env } from "@/lib/env";
import type { FeedEvent } from "./types";

/**
 * Fan-out of feed signals to the open streams of this process. On Postgres the receiver sends
 * `pg_notify(FEED_CHANNEL, …)` inside its transaction, so every console process (this one
 * included) hears it at commit through its own dedicated LISTEN connection. On PGlite there is
 * only one process: the receiver emits in-process after commit.
 */
export const FEED_CHANNEL = "console_feed";
/**
 * "Deliveries were stored and wait for the applier": one small signal per stored group, not one
 * per delivery (those reach FEED_CHANNEL once applied). Background processes listen to it.
 */
export const STORED_CHANNEL = "webhook_stored";

type Listener = (event: FeedEvent) => void;
type BusState = {
  emitter: EventEmitter;
  listening: Promise<void> | null;
  client: import("pg").Client | null;
  stopped: boolean;
};

const busKey = Symbol.for("merchant-console.feed-bus");

function state(): BusState {
  const g = globalThis as typeof globalThis & { [busKey]?: BusState };
  if (!g[busKey]) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    g[busKey] = { emitter, listening: null, client: null, stopped: false };
  }
  return g[busKey];
}

/** Delivers to this process's subscribers only. */
export function emitLocally(event: FeedEvent): void {
  state().emitter.emit("event", event);
}

async function listenOnPostgres(url: string): Promise<void> {
  const s = state();
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  client.on("notification", (message) => {
    if (message.channel === STORED_CHANNEL) {
      s.emitter.emit("stored");
      return;
    }
    if (message.channel !== FEED_CHANNEL || !message.payload) return;
    try {
      emitLocally(JSON.parse(message.payload) as FeedEvent);
    } catch {
      // a foreign payload on our channel: ignore
    }
  });
  const reconnect = () => {
    if (s.client !== client) return;
    s.client = null;
    s.listening = null;
    client.end().catch(() => {});
    if (!s.stopped && s.emitter.listenerCount("event") + s.emitter.listenerCount("stored") > 0) setTimeout(() => void ensureListening().catch(() => {}), 1000);
  };
  client.on("error", reconnect);
  client.on("end", reconnect);
  await client.connect();
  await client.query(`listen ${FEED_CHANNEL}; listen ${STORED_CHANNEL}`);
  s.client = client;
}

function ensureListening(): Promise<void> {
  const s = state();
  const url = env.databaseUrl;
  if (!url) return Promise.resolve();
  s.stopped = false;
  s.listening ??= listenOnPostgres(url).catch((error) => {
    s.listening = null;
    throw error;
  });
  return s.listening;
}

/** Subscribes to every feed event this process hears; returns the unsubscribe function. */
export async function subscribeFeed(listener: Listener): Promise<() => void> {
  const s = state();
  s.emitter.on("event", listener);
  try {
    await ensureListening();
  } catch (error) {
    s.emitter.off("event", listener);
    throw error;
  }
  return () => {
    s.emitter.off("event", listener);
  };
}

/** Called whenever any process has stored deliveries that wait for the applier (Postgres only). */
export async function subscribeStored(listener: () => void): Promise<() => void> {
  const s = state();
  s.emitter.on("stored", listener);
  try {
    await ensureListening();
  } catch (error) {
    s.emitter.off("stored", listener);
    throw error;
  }
  return () => {
    s.emitter.off("stored", listener);
  };
}

/** Closes the LISTEN connection (tests, benchmark). */
export async function stopFeedListener(): Promise<void> {
  const s = state();
  s.stopped = true;
  const client = s.client;
  s.client = null;
  s.listening = null;
  await client?.end().catch(() => {});
}
