import { z } from "zod";

export const faultRequestSchema = z.strictObject({
  status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  dropConnection: z.boolean().optional(),
  malformedBody: z.boolean().optional(),
  /** With `status`: the call is processed first (the charge is created), then answered with that status. */
  afterProcessing: z.boolean().optional(),
  times: z.number().int().min(1).max(10_000),
  /** Only calls for this identifier (request body `identifier`, or lookup `clientIdentifier`) misbehave. */
  identifier: z.string().min(1).max(200).optional(),
});

export type FaultSpec = z.infer<typeof faultRequestSchema>;
export type ActiveFault = Omit<FaultSpec, "times" | "identifier">;
type Entry = { fault: ActiveFault; identifier?: string; remaining: number };

/**
 * Per-producer queue of injected faults, consumed one per gateway call in the order they were
 * added. Kept in memory on purpose: a restart clears them.
 */
export class FaultRegistry {
  private queues = new Map<string, Entry[]>();

  add(producerId: string, spec: FaultSpec): void {
    const { times, identifier, ...fault } = spec;
    const queue = this.queues.get(producerId) ?? [];
    queue.push({ fault, identifier, remaining: times });
    this.queues.set(producerId, queue);
  }

  /** Whether deciding on this producer's next call needs the request's identifier (so the body is read only then). */
  needsIdentifier(producerId: string): boolean {
    return (this.queues.get(producerId) ?? []).some((entry) => entry.identifier !== undefined);
  }

  clear(producerId: string): void {
    this.queues.delete(producerId);
  }

  list(producerId: string): Array<ActiveFault & { identifier?: string; remaining: number }> {
    return (this.queues.get(producerId) ?? []).map((entry) => ({
      ...entry.fault,
      identifier: entry.identifier,
      remaining: entry.remaining,
    }));
  }

  /** Takes the first queued fault that applies to this call (any call, or one for its identifier), if any. */
  take(producerId: string, identifier?: string): ActiveFault | undefined {
    const queue = this.queues.get(producerId);
    if (!queue) return undefined;
    const index = queue.findIndex((entry) => entry.identifier === undefined || entry.identifier === identifier);
    if (index < 0) return undefined;
    const entry = queue[index];
    entry.remaining -= 1;
    if (entry.remaining <= 0) queue.splice(index, 1);
    if (queue.length === 0) this.queues.delete(producerId);
    return entry.fault;
  }
}
