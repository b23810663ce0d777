import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defineJob, localSignal, runJobPass, startJobs, stopJobs, type Listen } from "@/lib/runtime/jobs";
import { processState } from "@/lib/runtime/state";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A database signal stand-in: `notify(channel)` wakes what listens to it. */
function fakeChannels() {
  const listeners = new Map<string, Set<() => void>>();
  const listen: Listen = async (channel, onSignal) => {
    if (!listeners.has(channel)) listeners.set(channel, new Set());
    listeners.get(channel)!.add(onSignal);
    return () => listeners.get(channel)!.delete(onSignal);
  };
  return { listen, notify: (channel: string) => listeners.get(channel)?.forEach((wake) => wake()) };
}

describe("the process's state", () => {
  it("gives every copy of a module the same part, made once", () => {
    const name = `part-${randomUUID()}`;
    let made = 0;
    const first = processState(name, () => ({ made: ++made }));
    const second = processState(name, () => ({ made: ++made }));
    expect(first()).toBe(second());
    expect(made).toBe(1);
  });
});

describe("a claim job", () => {
  it("keeps `concurrency` items in flight, records results together, and stops once the work in hand has ended", async () => {
    const queue = Array.from({ length: 40 }, (_, i) => i);
    let inFlight = 0;
    let most = 0;
    const recorded: number[][] = [];
    const job = defineJob({
      name: `claim-${randomUUID()}`,
      intervalMs: () => 60_000,
      concurrency: () => 4,
      claim: async (limit) => queue.splice(0, limit),
      run: async (item: number) => {
        most = Math.max(most, ++inFlight);
        await sleep(5);
        inFlight--;
        return item * 10;
      },
      record: async (results: number[]) => void recorded.push(results),
    });
    await startJobs([job], fakeChannels().listen);
    for (let waited = 0; recorded.flat().length < 40 && waited < 5_000; waited += 10) await sleep(10);
    await stopJobs([job]);
    expect(most).toBe(4);
    expect(recorded.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i * 10));
    expect(recorded.length).toBeLessThan(40);
  });

  it("is woken by its channel, and a pass of it ends within its budget and closes what ended", async () => {
    const queue: number[] = [];
    const ran: number[] = [];
    let drained = 0;
    const channels = fakeChannels();
    const job = defineJob({
      name: `claim-${randomUUID()}`,
      wakeOn: ["due_channel"],
      intervalMs: () => 60_000,
      concurrency: () => 2,
      claim: async (limit) => queue.splice(0, limit),
      run: async (item: number) => void ran.push(item),
      drained: async () => void drained++,
    });
    await startJobs([job], channels.listen);
    queue.push(1, 2, 3);
    channels.notify("due_channel");
    for (let waited = 0; ran.length < 3 && waited < 2_000; waited += 10) await sleep(10);
    expect(ran).toEqual([1, 2, 3]);
    await stopJobs([job]);

    queue.push(4, 5, 6);
    expect(await runJobPass(job)).toBe(3);
    expect(drained).toBeGreaterThan(0);
    queue.push(7, 8, 9);
    expect(await runJobPass(job, 0)).toBe(0);
  });
});

describe("a pass job", () => {
  it("takes wakes that come during a pass into one more pass, and a local signal wakes it", async () => {
    const due = localSignal(`due-${randomUUID()}`);
    let passes = 0;
    const job = defineJob({
      name: `pass-${randomUUID()}`,
      wakeOn: [due],
      intervalMs: () => 60_000,
      async pass() {
        passes++;
        await sleep(30);
        return 1;
      },
    });
    await startJobs([job], fakeChannels().listen);
    await sleep(5);
    for (let i = 0; i < 5; i++) due.raise();
    await sleep(120);
    // The first pass at start, then one for the five wakes it heard while running.
    expect(passes).toBe(2);
    await stopJobs([job]);
    due.raise();
    await sleep(50);
    expect(passes).toBe(2);
  });

  it("runs on demand where no driver keeps it, only when its definition allows", async () => {
    let allowed = false;
    let passes = 0;
    const job = defineJob({
      name: `pass-${randomUUID()}`,
      intervalMs: () => 60_000,
      onDemand: () => allowed,
      pass: async () => ++passes,
    });
    job.wake();
    await sleep(10);
    expect(passes).toBe(0);
    allowed = true;
    job.wake();
    await sleep(10);
    expect(passes).toBe(1);
  });
});
