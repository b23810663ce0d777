import "server-only";
import { EventEmitter } from "node:events";
import { listenEmbedded } from "@/lib/db/client";
import { env } from "@/lib/env";
import { createLogger } from "@/lib/log";
import { processState } from "@/lib/runtime/state";
import type { FeedNotification } from "./types";

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

type Listener = (event: FeedNotification) => void;
type BusState = {
  emitter: EventEmitter;
  listening: Promise<void> | null;
  client: import("pg").Client | null;
  stopped: boolean;
  /** The channels this process has subscribers for: a background process never hears the feed itself. */
  channels: Set<string>;
  /** Those the current connection LISTENs to. */
  heard: Set<string>;
  /** A reconnection waiting for its turn, and how many have failed in a row (the backoff). */
  retry: NodeJS.Timeout | null;
  failures: number;
};

const log = createLogger("feed");

const state = processState<BusState>("feed-bus", () => {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return { emitter, listening: null, client: null, stopped: false, channels: new Set(), heard: new Set(), retry: null, failures: 0 };
});

/** Delivers to this process's subscribers only. */
export function emitLocally(event: FeedNotification): void {
  state().emitter.emit("event", event);
}

/** Reconnection delays: 0.5 s, 1 s, 2 s … up to 30 s while the database stays unreachable. */
export function reconnectDelayMs(failures: number): number {
  return Math.min(30_000, 500 * 2 ** Math.min(failures, 6));
}

function subscribed(s: BusState): boolean {
  return s.emitter.eventNames().some((name) => name !== "error" && s.emitter.listenerCount(name) > 0);
}

/**
 * The LISTEN connection was lost (ended by the server, a restart, a network cut): it is opened
 * again with a growing delay for as long as this process has subscribers. Whatever was notified
 * in between was not heard, so once listening again every subscriber of a signal is woken once
 * (the applier, the sender: each then looks for work); feed streams replay from their cursor.
 */
function scheduleReconnect(s: BusState): void {
  if (s.stopped || s.retry || s.channels.size === 0 || !subscribed(s)) return;
  const delay = reconnectDelayMs(s.failures);
  s.retry = setTimeout(() => {
    s.retry = null;
    const url = env.databaseUrl;
    if (s.stopped || !url || s.client || s.listening) return;
    s.listening = listenOnPostgres(url).then(
      () => {
        s.failures = 0;
        log.info("listening again", { channels: [...s.heard].sort() });
        for (const channel of s.heard) if (channel !== FEED_CHANNEL) s.emitter.emit(`signal:${channel}`);
      },
      (error: unknown) => {
        s.listening = null;
        s.failures += 1;
        log.warn("listening again failed", { error, retryInMs: reconnectDelayMs(s.failures) });
        scheduleReconnect(s);
      },
    );
  }, delay);
  s.retry.unref();
}

async function listenOnPostgres(url: string): Promise<void> {
  const s = state();
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  client.on("notification", (message) => {
    if (message.channel !== FEED_CHANNEL) {
      s.emitter.emit(`signal:${message.channel}`);
      return;
    }
    if (!message.payload) return;
    try {
      emitLocally(JSON.parse(message.payload) as FeedNotification);
    } catch {
      // a foreign payload on our channel: ignore
    }
  });
  let lost = false;
  const onLost = (error?: Error) => {
    if (lost) return;
    lost = true;
    client.end().catch(() => {});
    // Lost before it was ready: the caller's promise fails and the caller decides.
    if (s.client !== client) return;
    log.warn("listen connection lost", { code: (error as { code?: string } | undefined)?.code ?? null });
    s.client = null;
    s.listening = null;
    s.heard.clear();
    scheduleReconnect(s);
  };
  // Without an 'error' listener a connection ended by the server would take the process down.
  client.on("error", onLost);
  client.on("end", () => onLost());
  try {
    await client.connect();
    const channels = [...s.channels];
    await client.query(channels.map((name) => `listen ${name}`).join("; "));
    if (lost) throw new Error("the listen connection was lost while it opened");
    s.heard = new Set(channels);
    s.client = client;
  } catch (error) {
    lost = true;
    await client.end().catch(() => {});
    throw error;
  }
}

async function ensureListening(channel: string): Promise<void> {
  const s = state();
  const url = env.databaseUrl;
  if (!url) return;
  s.stopped = false;
  s.channels.add(channel);
  s.listening ??= listenOnPostgres(url).catch((error) => {
    s.listening = null;
    throw error;
  });
  await s.listening;
  if (s.client && !s.heard.has(channel)) {
    s.heard.add(channel);
    await s.client.query(`listen ${channel}`);
  }
}

/** Subscribes to every feed event this process hears; returns the unsubscribe function. */
export async function subscribeFeed(listener: Listener): Promise<() => void> {
  const s = state();
  s.emitter.on("event", listener);
  try {
    await ensureListening(FEED_CHANNEL);
  } catch (error) {
    s.emitter.off("event", listener);
    throw error;
  }
  return () => {
    s.emitter.off("event", listener);
  };
}

/** Called whenever any process has stored deliveries that wait for the applier (Postgres only). */
export function subscribeStored(listener: () => void): Promise<() => void> {
  return subscribeSignal(STORED_CHANNEL, listener);
}

/**
 * Calls `listener` whenever any process sends NOTIFY on `channel` (a plain name): on Postgres through
 * this process's LISTEN connection, on the embedded database through its own notifications.
 */
export async function subscribeSignal(channel: string, listener: () => void): Promise<() => void> {
  const embedded = await listenEmbedded(channel, listener);
  if (embedded) return () => void embedded().catch(() => {});
  const s = state();
  const name = `signal:${channel}`;
  s.emitter.on(name, listener);
  try {
    await ensureListening(channel);
  } catch (error) {
    s.emitter.off(name, listener);
    throw error;
  }
  return () => {
    s.emitter.off(name, listener);
  };
}

/** The channels this process's connection LISTENs to now (tests, diagnostics). */
export function listeningChannels(): string[] {
  return [...state().heard].sort();
}

/** Closes the LISTEN connection (tests, benchmark). */
export async function stopFeedListener(): Promise<void> {
  const s = state();
  s.stopped = true;
  if (s.retry) clearTimeout(s.retry);
  s.retry = null;
  s.failures = 0;
  const client = s.client;
  s.client = null;
  s.listening = null;
  s.channels.clear();
  s.heard.clear();
  await client?.end().catch(() => {});
}
