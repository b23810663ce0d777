import { describe, expect, it } from "vitest";
import { subscriptionFact, type SubscriptionEvent } from "@/lib/subscriptions/events";
import { DEFAULT_RULES, deriveState, type SubscriptionFacts } from "@/lib/subscriptions/rules";
import type { SubscriptionCharge, SubscriptionRow } from "@/lib/subscriptions/views";
import { classify, eventBody, type Fact } from "../events";
import { eventBodySchema } from "../schemas";

/**
 * The two sides of a "subscription" outbox row kept together: the row lib/subscriptions writes
 * (subscriptionFact, with the state rules.ts derives) is read here into a body its schema accepts.
 */
const row = {
  id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  accountId: "acc-1",
  gatewaySubscriptionId: "sub_01JD2W4X5Y",
  identifier: "assinatura-clube-551",
  source: "console",
  ledgerId: null,
  paymentMethod: "CREDIT_CARD",
  amountCents: 4990,
  currency: "BRL",
  periodicityType: "MONTHS",
  periodicity: 1,
  firstChargeIn: null,
  clientName: "Maria Souza",
  clientEmail: "maria@example.com",
  clientDocument: null,
  productId: null,
  productName: "Clube mensal",
  startedAt: new Date("2026-06-20T14:00:00.000Z"),
  gatewayRecord: null,
  gatewayStatus: "ACTIVE",
  gatewayRecordAt: null,
  createdAt: new Date("2026-06-20T14:00:00.000Z"),
  updatedAt: new Date("2026-06-20T14:00:00.000Z"),
} as unknown as SubscriptionRow;

const charge = (chargeNumber: number, dueAt: string, paidAt: string | null, status: string): SubscriptionCharge => ({
  chargeNumber,
  dueAt: new Date(dueAt),
  paidAt: paidAt ? new Date(paidAt) : null,
  status,
  gatewayTransactionId: `tx_${chargeNumber}`,
  ledgerId: `ledger-${chargeNumber}`,
  identifier: null,
  amountCents: 4990,
  currency: "BRL",
  pendingStatus: null,
  announced: null,
});

const first = charge(1, "2026-06-20T14:00:00.000Z", "2026-06-20T14:01:00.000Z", "COMPLETED");
const paidRenewal = charge(2, "2026-07-20T14:00:00.000Z", "2026-07-20T14:03:00.000Z", "COMPLETED");
const failedRenewal = charge(2, "2026-07-20T14:00:00.000Z", null, "FAILED");

function readRow(event: SubscriptionEvent, renewal: SubscriptionCharge, at: string): Fact {
  const when = new Date(at);
  const facts: SubscriptionFacts = {
    gatewayStatus: "ACTIVE",
    gatewayStatusAt: null,
    periodicity: { type: "MONTHS", every: 1 },
    charges: [first, renewal],
  };
  const states = {
    previous: deriveState(facts, new Date(when.getTime() - 1), DEFAULT_RULES),
    current: deriveState(facts, when, DEFAULT_RULES),
  };
  const written = subscriptionFact(event, row, "key", states, renewal);
  // As the outbox hands it back: jsonb, so dates are strings.
  return {
    id: "msg_0123456789abcdef0123456789abcdef",
    accountId: written.accountId,
    source: written.source,
    objectId: written.objectId,
    previousStatus: written.previousStatus,
    status: written.status,
    snapshot: JSON.parse(JSON.stringify(written.snapshot)) as Record<string, unknown>,
    occurredAt: when,
  };
}

describe("the rows lib/subscriptions writes, as the destinations read them", () => {
  it.each([
    ["renewed", paidRenewal, "2026-07-20T14:03:00.000Z", { status: "active", state: { lastPaidAt: "2026-07-20T14:03:00.000Z" } }],
    [
      "renewal_failed",
      failedRenewal,
      "2026-07-20T15:00:00.000Z",
      { status: "awaiting_payment", state: { dueDate: "2026-07-20", daysSinceDue: 0 } },
    ],
    [
      "overdue",
      failedRenewal,
      "2026-07-25T12:00:00.000Z",
      { status: "overdue", state: { dueDate: "2026-07-20", daysOverdue: 5, missedPeriods: 1 } },
    ],
    [
      "lost",
      failedRenewal,
      "2026-09-25T12:00:00.000Z",
      { status: "lost", state: { dueDate: "2026-07-20", missedPeriods: 3, lostSince: "2026-09-24" } },
    ],
  ] as const)("%s", (event, renewal, at, expected) => {
    const fact = readRow(event, renewal, at);
    const type = classify(fact);
    expect(type).toBe(`subscription.${event}`);
    const body = eventBody(fact, type!, { mode: "test" });
    expect(() => eventBodySchema(type!).parse(body)).not.toThrow();
    expect(body.data).toMatchObject({
      object: "subscription",
      id: row.id,
      gatewaySubscriptionId: "sub_01JD2W4X5Y",
      gatewayStatus: "ACTIVE",
      amountCents: 4990,
      periodicity: { type: "MONTHS", every: 1 },
      product: { id: null, name: "Clube mensal" },
      charge: { gatewayId: "tx_2", ledgerId: "ledger-2", chargeNumber: 2, gatewayStatus: renewal.status },
      ...expected,
    });
  });
});
