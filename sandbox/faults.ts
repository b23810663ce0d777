import { z } from "zod";

export const faultRequestSchema = z.strictObject({
  status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  dropConnection: z.boolean().optional(),
  malformedBody: z.boolean().optional(),
  times: z.number().int().min(1).max(10_000),
});

export type FaultSpec = z.infer<typeof faultRequestSchema>;
export type ActiveFault = Omit<FaultSpec, "times">;

/**
 * Per-producer queue of injected faults, consumed one per gateway call in the order they were
 * added. Kept in memory on purpose: a restart clears them.
 */
export class FaultRegistry {
  private queues = new Map<string, Array<{ fault: ActiveFault; remaining: number }>>();

  add(producerId: string, spec: FaultSpec): void {
    const { times, ...fault } = spec;
    const queue = this.queues.get(producerId) ?? [];
    queue.push({ fault, remaining: times });
    this.queues.set(producerId, queue);
  }

  clear(producerId: string): void {
    this.queues.delete(producerId);
  }

  list(producerId: string): Array<ActiveFault & { remaining: number }> {
    return (this.queues.get(producerId) ?? []).map((entry) => ({ ...entry.fault, remaining: entry.remaining }));
  }

  /** Takes the fault that applies to this call, if any. */
  take(producerId: string): ActiveFault | undefined {
    const queue = this.queues.get(producerId);
    if (!queue || queue.length === 0) return undefined;
    const head = queue[0];
    head.remaining -= 1;
    if (head.remaining <= 0) queue.shift();
    if (queue.length === 0) this.queues.delete(producerId);
    return head.fault;
  }
}
