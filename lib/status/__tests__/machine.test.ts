import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  decide,
  isFinal,
  MACHINES,
  needsConfirmation,
  refundMachine,
  stateOf,
  subscriptionMachine,
  transactionMachine,
  transferMachine,
  type StatusMachine,
} from "../machine";

/** Applies reports in arrival order, as every writer does, and returns the status kept. */
function replay<S extends string>(machine: StatusMachine<S>, reports: { status: string; at: Date }[]) {
  let current: string | null = null;
  let currentAt: Date | null = null;
  const history: string[] = [];
  for (const report of reports) {
    const decision = decide(machine, current, report.status, { currentAt, incomingAt: report.at });
    if (decision.apply) {
      current = report.status;
      currentAt = report.at;
      history.push(report.status);
    }
  }
  return { current, history };
}

/** Lifecycles a gateway of the family really walks through, in the order it walks them. */
const LIFECYCLES: [StatusMachine<string>, string[]][] = [
  [transactionMachine, ["OK", "PENDING", "COMPLETED"]],
  [transactionMachine, ["PENDING", "COMPLETED", "REFUNDED"]],
  [transactionMachine, ["OK", "PENDING", "COMPLETED", "CHARGED_BACK"]],
  [transactionMachine, ["PENDING", "EXPIRED"]],
  [transactionMachine, ["OK", "PENDING", "FAILED"]],
  [transactionMachine, ["PENDING", "CANCELED"]],
  [subscriptionMachine, ["PENDING", "ACTIVE", "SUSPENDED", "ACTIVE", "CANCELED"]],
  [transferMachine, ["PENDING", "PROCESSING", "COMPLETED"]],
  [transferMachine, ["PENDING", "FAILED"]],
  [refundMachine, ["PENDING", "APPROVED"]],
  [refundMachine, ["PENDING", "REJECTED"]],
];

const shuffled = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });

describe("status machines", () => {
  it("maps the seed's statuses and the family's spellings; anything else is unknown, never paid, never final", () => {
    expect(stateOf(transactionMachine, "OK")).toBe("awaiting");
    expect(stateOf(transactionMachine, "PENDING")).toBe("awaiting");
    expect(stateOf(transactionMachine, "COMPLETED")).toBe("paid");
    expect(stateOf(transactionMachine, "FAILED")).toBe("failed");
    expect(stateOf(transactionMachine, "charged-back")).toBe("charged_back");
    expect(stateOf(transactionMachine, "PAID_OUT_TO_MARS")).toBe("unknown");
    expect(isFinal(transactionMachine, "PAID_OUT_TO_MARS")).toBe(false);
    expect(stateOf(transferMachine, "PENDING")).toBe("awaiting");
    expect(stateOf(refundMachine, "PENDING")).toBe("awaiting");
    expect(stateOf(transactionMachine, null)).toBeNull();
  });

  it("every machine's table names only its own states, and finals have no way out", () => {
    for (const machine of Object.values(MACHINES) as StatusMachine<string>[]) {
      const states = new Set(machine.states);
      for (const state of Object.values(machine.aliases)) expect(states.has(state)).toBe(true);
      for (const [from, tos] of Object.entries(machine.moves) as [string, string[]][]) {
        expect(states.has(from)).toBe(true);
        for (const to of tos) expect(states.has(to)).toBe(true);
        if (machine.finals.has(from)) expect(tos).toEqual([]);
      }
      expect(machine.finals.has("unknown")).toBe(false);
      expect(machine.confirm.has(machine.done)).toBe(true);
    }
  });

  it("a final status never goes back, whatever arrives after it and whenever it claims to be from", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.values(MACHINES) as StatusMachine<string>[])),
        fc.array(fc.tuple(fc.string({ maxLength: 12 }), fc.integer({ min: 0, max: 1_000 })), { maxLength: 10 }),
        (machine, tail) => {
          const finalAlias = Object.entries(machine.aliases).find(([, s]) => machine.finals.has(s))![0];
          const aliases = Object.keys(machine.aliases);
          const reports = [
            { status: finalAlias, at: new Date(500) },
            ...tail.map(([s, t], i) => ({ status: i % 2 ? s : aliases[t % aliases.length], at: new Date(t) })),
          ];
          const { history } = replay(machine, reports);
          const firstFinal = history.findIndex((status) => isFinal(machine, status));
          for (const status of history.slice(firstFinal)) expect(stateOf(machine, status)).toBe(stateOf(machine, finalAlias));
        },
      ),
    );
  });

  it("a real lifecycle delivered in any order ends where the gateway ended it", () => {
    const cases = fc.constantFrom(...LIFECYCLES).chain(([machine, steps]) => {
      const timed = steps.map((status, i) => ({ status, at: new Date(1_000 * (i + 1)) }));
      return shuffled(timed).map((order) => ({ machine, steps, order }));
    });
    fc.assert(
      fc.property(cases, ({ machine, steps, order }) => {
        const { current } = replay(machine, order);
        expect(stateOf(machine, current)).toBe(stateOf(machine, steps.at(-1)));
      }),
      { numRuns: 500 },
    );
  });

  it("a stale or contradicting delivery never turns a paid transaction back to awaiting", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("OK", "PENDING", "WAITING_PAYMENT", "CREATED"),
        fc.integer({ min: -1e9, max: 1e9 }),
        (earlier, offset) => {
          const paidAt = new Date(2_000_000_000_000);
          const decision = decide(transactionMachine, "COMPLETED", earlier, {
            currentAt: paidAt,
            incomingAt: new Date(paidAt.getTime() + offset),
          });
          expect(decision.apply).toBe(false);
        },
      ),
    );
  });

  it("an unknown status is kept verbatim but a known one may follow it; an older report of the same state loses", () => {
    expect(decide(transactionMachine, "PENDING", "IN_DISPUTE_V2").apply).toBe(true);
    expect(decide(transactionMachine, "IN_DISPUTE_V2", "COMPLETED").apply).toBe(true);
    expect(decide(transactionMachine, "COMPLETED", "IN_DISPUTE_V2")).toMatchObject({ apply: false, reason: "forbidden" });
    expect(decide(transactionMachine, "PENDING", "OK", { currentAt: new Date(2_000), incomingAt: new Date(1_000) })).toMatchObject({
      apply: false,
      reason: "stale",
    });
    expect(decide(transactionMachine, "COMPLETED", "REFUNDED").apply).toBe(true);
    expect(decide(transactionMachine, "REFUNDED", "COMPLETED")).toMatchObject({ apply: false, reason: "final" });
  });

  it("moves that change what the console says about money are confirmed first; awaiting and unknown are not", () => {
    for (const status of ["COMPLETED", "REFUNDED", "CHARGED_BACK", "FAILED", "CANCELED"])
      expect(needsConfirmation(transactionMachine, status)).toBe(true);
    for (const status of ["OK", "PENDING", "SOMETHING_NEW"]) expect(needsConfirmation(transactionMachine, status)).toBe(false);
    expect(needsConfirmation(transferMachine, "COMPLETED")).toBe(true);
    expect(needsConfirmation(transferMachine, "FAILED")).toBe(true);
  });
});
