import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STATE_NAMES } from "@/lib/subscriptions/rules";
import { classify, eventBody, type Fact } from "../events";
import { exampleBody, exampleFact } from "../examples";
import { eventsOpenApi } from "../openapi";
import { ALL_SCHEMA_TYPES, eventBodySchema } from "../schemas";
import { EVENT_TYPES, SUBSCRIPTION_STATE_WORDS } from "../vocabulary";

describe("the events' contract", () => {
  it("has a schema and an example for every type, and every example is valid against its schema", () => {
    const document = eventsOpenApi();
    expect(Object.keys(document.webhooks).sort()).toEqual([...ALL_SCHEMA_TYPES].sort());
    for (const type of ALL_SCHEMA_TYPES) {
      const example = exampleBody(type);
      expect(example.type).toBe(type);
      expect(() => eventBodySchema(type).parse(example), type).not.toThrow();
    }
  });

  it("public/events/openapi.json is what `npm run events:openapi` writes today", () => {
    const committed = JSON.parse(readFileSync("public/events/openapi.json", "utf8"));
    expect(committed).toEqual(JSON.parse(JSON.stringify(eventsOpenApi())));
  });

  it("a schema refuses a body that breaks it (the check can fail)", () => {
    const example = exampleBody("charge.paid");
    expect(() => eventBodySchema("charge.paid").parse({ ...example, data: { ...example.data, amountCents: "12" } })).toThrow();
    expect(() => eventBodySchema("charge.paid").parse({ ...example, type: "charge.refunded" })).toThrow();
  });
});

const fact = (over: Partial<Fact> & { snapshot: Record<string, unknown> }): Fact => ({
  id: "msg_x",
  accountId: "a",
  source: "ledger",
  objectId: "o",
  previousStatus: null,
  status: null,
  occurredAt: new Date(),
  ...over,
});

describe("which fact is which event", () => {
  it.each([
    ["creation answer OK", null, "OK", "creation", "charge.created"],
    ["lookup paid", "PENDING", "COMPLETED", "lookup", "charge.paid"],
    ["lookup paid, another spelling", "OK", "PAID", "lookup", "charge.paid"],
    ["paid spelled again", "COMPLETED", "APPROVED", "lookup", null],
    ["notification alone, money-neutral", null, "PENDING", "webhook", null],
    ["notification alone, paid (never believed)", "PENDING", "COMPLETED", "webhook", null],
    ["refunded", "COMPLETED", "REFUNDED", "lookup", "charge.refunded"],
    ["chargeback", "COMPLETED", "CHARGEBACK", "lookup", "charge.charged_back"],
    ["failed at creation", null, "FAILED", "creation", "charge.failed"],
    ["unknown spelling", "PENDING", "WEIRD_STATE", "lookup", null],
    ["back to awaiting", "OK", "PENDING", "lookup", null],
  ])("%s", (_name, previousStatus, status, source, expected) => {
    expect(classify(fact({ previousStatus, status, snapshot: { kind: "pix_charge", status_source: source } }))).toBe(expected);
  });

  it("subscriptions are created once, by their creation answer; transfers by their creation answer or their own token", () => {
    expect(classify(fact({ status: "ACTIVE", snapshot: { kind: "card_subscription", status_source: "creation" } }))).toBe(
      "subscription.created",
    );
    expect(
      classify(fact({ previousStatus: "OK", status: "CANCELED", snapshot: { kind: "card_subscription", status_source: "webhook" } })),
    ).toBeNull();
    const transfer = (previousStatus: string | null, status: string, source: string) =>
      classify(fact({ source: "transfer", previousStatus, status, snapshot: { withdraw_status_source: source } }));
    expect(transfer(null, "PENDING", "creation")).toBe("transfer.created");
    expect(transfer("PENDING", "COMPLETED", "notification")).toBe("transfer.completed");
    expect(transfer("PENDING", "ERROR", "notification")).toBe("transfer.failed");
    expect(transfer("PENDING", "PROCESSING", "notification")).toBeNull();
    expect(classify(fact({ source: "refund_request", status: "PENDING", snapshot: {} }))).toBe("refund_request.created");
    expect(classify(fact({ source: "checkout_link", snapshot: {} }))).toBe("checkout_link.created");
  });

  it.each(EVENT_TYPES)("the example of %s is written from a fact that classifies as it", (type) => {
    expect(classify(exampleFact(type).fact)).toBe(type);
  });
});

describe('a subscription\'s renewals and console states (rows lib/subscriptions writes, source "subscription")', () => {
  const row = (snapshot: unknown, over: Partial<Fact> = {}): Fact =>
    fact({
      source: "subscription",
      previousStatus: "awaiting_payment",
      status: "overdue",
      snapshot: snapshot as Record<string, unknown>,
      ...over,
    });

  it.each([
    ["renewed", "subscription.renewed"],
    ["renewal_failed", "subscription.renewal_failed"],
    ["overdue", "subscription.overdue"],
    ["lost", "subscription.lost"],
  ])("event %s is %s", (event, expected) => {
    expect(classify(row({ event }))).toBe(expected);
  });

  it.each([
    ["another event", { event: "created" }],
    ["a type's full name", { event: "subscription.renewed" }],
    ["another spelling", { event: "RENEWED" }],
    ["a key every object has", { event: "constructor" }],
    ["a key every object has (2)", { event: "__proto__" }],
    ["no event", { subscription: {} }],
    ["an event that is no string", { event: ["renewed"] }],
    ["an empty snapshot", {}],
    ["a null snapshot", null],
    ["a list", ["renewed"]],
    ["a string", "renewed"],
  ])("is skipped, never thrown, for %s", (_name, snapshot) => {
    expect(() => classify(row(snapshot))).not.toThrow();
    expect(classify(row(snapshot))).toBeNull();
  });

  it.each([
    ["nothing but the event", { event: "lost" }],
    ["parts of the wrong shape", { event: "overdue", subscription: "x", state: [1], charge: 7 }],
    [
      "fields of the wrong types",
      {
        event: "renewed",
        subscription: { id: 1, amount_cents: "abc", periodicity_type: 3, periodicity: 1.5, started_at: "yesterday", client_name: {} },
        state: { state: "overdue", dueDay: "2026-02-30", days: "four", missedPeriods: 1.5, sinceDay: 20261120, lastPaidAt: "never" },
        charge: { gateway_transaction_id: null, charge_number: "2", due_at: 5, status: 12, amount_cents: 1e300 },
      },
    ],
  ])("a malformed snapshot still makes a valid body (%s)", (_name, snapshot) => {
    const fromRow = row(snapshot, { status: "something else" });
    const type = classify(fromRow)!;
    const body = eventBody(fromRow, type, { mode: "test" });
    expect(() => eventBodySchema(type).parse(body)).not.toThrow();
    expect(body.data).toMatchObject({ object: "subscription", status: "unknown" });
  });

  it("reads the row as the producer writes it: the console's states, the gateway's spellings beside the console's words", () => {
    const { fact: renewed } = exampleFact("subscription.renewed");
    expect(eventBody(renewed, "subscription.renewed", { mode: "live" }).data).toMatchObject({
      object: "subscription",
      id: renewed.objectId,
      status: "active",
      gatewayStatus: "ACTIVE",
      periodicity: { type: "MONTHS", every: 1 },
      state: { lastPaidAt: "2026-11-20T15:04:58.000Z", dueDate: null, daysOverdue: null },
      charge: { chargeNumber: 6, status: "paid", gatewayStatus: "COMPLETED", amount: 49.9, amountCents: 4990, currency: "BRL" },
    });
    const { fact: overdue } = exampleFact("subscription.overdue");
    expect(eventBody(overdue, "subscription.overdue", { mode: "live" }).data).toMatchObject({
      status: "overdue",
      state: { dueDate: "2026-11-20", daysSinceDue: 4, daysOverdue: 4, missedPeriods: 1, lostSince: null },
      charge: { status: "failed", gatewayStatus: "FAILED", paidAt: null },
    });
    const { fact: lost } = exampleFact("subscription.lost");
    const lostBody = eventBody({ ...lost, snapshot: { ...lost.snapshot, charge: null } }, "subscription.lost", { mode: "live" });
    expect(lostBody.data).toMatchObject({ status: "lost", state: { missedPeriods: 3, lostSince: "2027-01-24" }, charge: null });
    expect(() => eventBodySchema("subscription.lost").parse(lostBody)).not.toThrow();
  });

  it("subscription.created keeps its own schema; the four share theirs, and neither takes the other's body", () => {
    expect(() => eventBodySchema("subscription.created").parse(exampleBody("subscription.created"))).not.toThrow();
    const renewed = exampleBody("subscription.renewed");
    expect(() => eventBodySchema("subscription.created").parse({ ...renewed, type: "subscription.created" })).toThrow();
    expect(() =>
      eventBodySchema("subscription.renewed").parse({ ...exampleBody("subscription.created"), type: "subscription.renewed" }),
    ).toThrow();
    expect(() => eventBodySchema("subscription.renewed").parse({ ...renewed, data: { ...renewed.data, status: "em atraso" } })).toThrow();
  });

  it("states are the words of lib/subscriptions/rules.ts", () => {
    expect([...SUBSCRIPTION_STATE_WORDS].sort()).toEqual([...STATE_NAMES].sort());
  });
});
