"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { FEED_RESUME_OVERLAP, matchesFeedFilter, type FeedNotification, type FeedFilter } from "./types";

export type { FeedNotification, FeedFilter } from "./types";

export const feedKeys = {
  all: ["feed"] as const,
  poll: () => [...feedKeys.all, "poll"] as const,
};

type Mode = "connecting" | "live" | "polling";
type Listener = (event: FeedNotification) => void;

/**
 * One EventSource per browser tab, shared by every hook instance. When the stream cannot be
 * kept open (proxy without streaming, session check refused…) the hooks poll /api/feed until a
 * reconnect attempt succeeds.
 */
const hub = {
  listeners: new Set<Listener>(),
  modeListeners: new Set<() => void>(),
  source: null as EventSource | null,
  mode: "connecting" as Mode,
  cursor: null as number | null,
  retryTimer: null as ReturnType<typeof setTimeout> | null,
  failures: 0,
  /** Deliveries already dispatched (id and cursor): resumed streams and polls overlap on purpose. */
  seen: new Set<string>(),
};
const SEEN_LIMIT = 5_000;
const resumeFrom = (cursor: number) => Math.max(0, cursor - FEED_RESUME_OVERLAP);

function setMode(mode: Mode) {
  if (hub.mode === mode) return;
  hub.mode = mode;
  for (const listener of hub.modeListeners) listener();
}

function dispatch(event: FeedNotification) {
  const key = `${event.id}:${event.seq}`;
  if (hub.seen.has(key)) return;
  hub.seen.add(key);
  if (hub.seen.size > SEEN_LIMIT) hub.seen.delete(hub.seen.values().next().value!);
  hub.cursor = Math.max(hub.cursor ?? 0, event.seq);
  for (const listener of hub.listeners) listener(event);
}

function connect() {
  if (hub.source || typeof EventSource === "undefined") return;
  // A new stream after a gap resumes from the cursor: nothing delivered meanwhile is lost.
  const source = new EventSource(hub.cursor === null ? "/api/feed/stream" : `/api/feed/stream?after=${resumeFrom(hub.cursor)}`);
  hub.source = source;
  source.addEventListener("ready", () => {
    hub.failures = 0;
    setMode("live");
  });
  source.addEventListener("feed", (message) => {
    try {
      dispatch(JSON.parse((message as MessageEvent<string>).data) as FeedNotification);
    } catch {
      // malformed line: skip
    }
  });
  source.onerror = () => {
    // The browser retries by itself while the stream is merely interrupted; a refused or
    // non-stream answer closes it for good, so poll and try again later.
    hub.failures += 1;
    if (source.readyState === EventSource.CLOSED || hub.failures >= 3) {
      source.close();
      if (hub.source === source) hub.source = null;
      setMode("polling");
      if (hub.listeners.size > 0 && !hub.retryTimer) {
        hub.retryTimer = setTimeout(
          () => {
            hub.retryTimer = null;
            if (hub.listeners.size > 0) connect();
          },
          Math.min(30_000, 2_000 * hub.failures),
        );
      }
    }
  };
}

function disconnectIfUnused() {
  if (hub.listeners.size > 0) return;
  hub.source?.close();
  hub.source = null;
  if (hub.retryTimer) clearTimeout(hub.retryTimer);
  hub.retryTimer = null;
  setMode("connecting");
}

function subscribeMode(onChange: () => void): () => void {
  hub.modeListeners.add(onChange);
  return () => hub.modeListeners.delete(onChange);
}

async function pollOnce(): Promise<number> {
  const query = hub.cursor === null ? "" : `?after=${resumeFrom(hub.cursor)}`;
  const response = await fetch(`/api/feed${query}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`feed ${response.status}`);
  const body = (await response.json()) as { events: FeedNotification[]; cursor: number };
  for (const event of body.events) dispatch(event);
  hub.cursor = Math.max(hub.cursor ?? 0, body.cursor);
  return hub.cursor;
}

/**
 * Calls `onEvent` for every notification delivered from now on that matches `filter` (or any of
 * several filters)
 * (account, ledger row, event name, payment method), live over SSE with polling as fallback.
 * Returns the connection mode, e.g. to show a "live" badge. `since` is the feed cursor the
 * page's server data was read at.
 */
export function useLiveEvents(filter: FeedFilter | FeedFilter[], onEvent: (event: FeedNotification) => void, since?: number | null): Mode {
  const mode = useSyncExternalStore(
    subscribeMode,
    () => hub.mode,
    () => "connecting" as Mode,
  );
  const onEventRef = useRef(onEvent);
  const filterRef = useRef(filter);
  const sinceRef = useRef(since);
  useEffect(() => {
    onEventRef.current = onEvent;
    filterRef.current = filter;
  });

  useEffect(() => {
    const listener: Listener = (event) => {
      const filters = Array.isArray(filterRef.current) ? filterRef.current : [filterRef.current];
      if (filters.some((one) => matchesFeedFilter(event, one))) onEventRef.current(event);
    };
    hub.listeners.add(listener);
    // The page was rendered at cursor `since`: the first stream resumes from there, so what
    // arrived between the render and the connection is not lost.
    if (hub.cursor === null && typeof sinceRef.current === "number") hub.cursor = sinceRef.current;
    connect();
    return () => {
      hub.listeners.delete(listener);
      disconnectIfUnused();
    };
  }, []);

  // Polling is the fallback: its code (React Query) loads only when the stream cannot be kept open.
  useEffect(() => {
    if (mode !== "polling") return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    import("./poller").then(
      ({ pollEverySecond }) => {
        if (!cancelled) stop = pollEverySecond(feedKeys.poll(), pollOnce);
      },
      () => {},
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [mode]);

  return mode;
}
