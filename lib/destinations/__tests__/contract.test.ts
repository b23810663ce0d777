import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classify, type Fact } from "../events";
import { exampleBody, exampleFact } from "../examples";
import { eventsOpenApi } from "../openapi";
import { ALL_SCHEMA_TYPES, eventBodySchema } from "../schemas";
import { EVENT_TYPES } from "../vocabulary";

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
