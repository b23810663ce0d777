import { z } from "zod";

/**
 * Sandbox choice: the interface shows no rate limit ("the lookup is not for frequent polling"), so
 * the sandbox answers every lookup unless a test asks otherwise. Per producer, in memory (a restart
 * clears it), like faults:
 *
 * - `ratePerSecond`: at most that many lookups answered per calendar second; the others get 429
 *   with `Retry-After` (the seconds to the next second, at least 1, or `retryAfterSeconds`).
 * - `rateLimitedFraction`: that fraction of lookups (0 to 1, drawn at random) gets 429 anyway.
 * - a counter of lookups received per calendar second (429s included), kept for the last hour, so a
 *   test can check that no second went over the console's ceiling.
 */
export const lookupLimitsRequestSchema = z.strictObject({
  ratePerSecond: z.number().int().min(1).max(100_000).nullable().optional(),
  rateLimitedFraction: z.number().min(0).max(1).optional(),
  retryAfterSeconds: z.number().int().min(0).max(3_600).nullable().optional(),
});

export type LookupLimits = { ratePerSecond: number | null; rateLimitedFraction: number; retryAfterSeconds: number | null };
export type LookupSecond = { second: string; lookups: number; rateLimited: number };
export type LookupStats = {
  limits: LookupLimits;
  total: number;
  rateLimited: number;
  /** The most lookups received in one calendar second. */
  maxPerSecond: number;
  /** Seconds with at least one lookup, oldest first. */
  perSecond: LookupSecond[];
};

const KEEP_SECONDS = 3_600;
const NO_LIMITS: LookupLimits = { ratePerSecond: null, rateLimitedFraction: 0, retryAfterSeconds: null };

type Counter = { lookups: number; answered: number; rateLimited: number };
type ProducerState = { limits: LookupLimits; seconds: Map<number, Counter>; total: number; rateLimited: number };

export class LookupMeter {
  private states = new Map<string, ProducerState>();

  constructor(private readonly random: () => number = Math.random) {}

  private state(producerId: string): ProducerState {
    let state = this.states.get(producerId);
    if (!state) this.states.set(producerId, (state = { limits: { ...NO_LIMITS }, seconds: new Map(), total: 0, rateLimited: 0 }));
    return state;
  }

  limits(producerId: string): LookupLimits {
    return { ...this.state(producerId).limits };
  }

  setLimits(producerId: string, patch: z.infer<typeof lookupLimitsRequestSchema>): LookupLimits {
    const state = this.state(producerId);
    state.limits = {
      ratePerSecond: patch.ratePerSecond === undefined ? state.limits.ratePerSecond : patch.ratePerSecond,
      rateLimitedFraction: patch.rateLimitedFraction ?? state.limits.rateLimitedFraction,
      retryAfterSeconds: patch.retryAfterSeconds === undefined ? state.limits.retryAfterSeconds : patch.retryAfterSeconds,
    };
    return { ...state.limits };
  }

  /** Counts one lookup received now; says whether to answer it 429 and with which Retry-After (seconds). */
  record(producerId: string, nowMs = Date.now()): { rateLimited: false } | { rateLimited: true; retryAfterSeconds: number } {
    const state = this.state(producerId);
    const second = Math.floor(nowMs / 1000);
    let counter = state.seconds.get(second);
    if (!counter) {
      state.seconds.set(second, (counter = { lookups: 0, answered: 0, rateLimited: 0 }));
      for (const old of state.seconds.keys()) {
        if (old > second - KEEP_SECONDS) break;
        state.seconds.delete(old);
      }
    }
    counter.lookups++;
    state.total++;
    const { ratePerSecond, rateLimitedFraction, retryAfterSeconds } = state.limits;
    const overRate = ratePerSecond !== null && counter.answered >= ratePerSecond;
    if (overRate || (rateLimitedFraction > 0 && this.random() < rateLimitedFraction)) {
      counter.rateLimited++;
      state.rateLimited++;
      const toNextSecond = Math.max(1, Math.ceil(((second + 1) * 1000 - nowMs) / 1000));
      return { rateLimited: true, retryAfterSeconds: retryAfterSeconds ?? toNextSecond };
    }
    counter.answered++;
    return { rateLimited: false };
  }

  stats(producerId: string): LookupStats {
    const state = this.state(producerId);
    const perSecond = [...state.seconds].map(([second, c]) => ({
      second: new Date(second * 1000).toISOString(),
      lookups: c.lookups,
      rateLimited: c.rateLimited,
    }));
    return {
      limits: { ...state.limits },
      total: state.total,
      rateLimited: state.rateLimited,
      maxPerSecond: perSecond.reduce((max, s) => Math.max(max, s.lookups), 0),
      perSecond,
    };
  }

  /** Clears the counters (the limits stay). */
  resetStats(producerId: string): void {
    const state = this.state(producerId);
    state.seconds.clear();
    state.total = 0;
    state.rateLimited = 0;
  }
}
