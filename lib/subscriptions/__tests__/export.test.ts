import { describe, expect, it } from "vitest";
import { SUBSCRIPTIONS_CSV_HEADER, subscriptionsCsv } from "@/lib/subscriptions/export";
import type { SubscriptionView } from "@/lib/subscriptions/queries";

const view = (overrides: Partial<SubscriptionView["subscription"]> = {}): SubscriptionView => ({
  subscription: {
    id: "s1",
    accountId: "a1",
    gatewaySubscriptionId: "sub_1",
    identifier: "assin-1",
    source: "notification",
    ledgerId: null,
    paymentMethod: "PIX",
    amountCents: 4990,
    currency: "BRL",
    periodicityType: "MONTHS",
    periodicity: 1,
    firstChargeIn: null,
    clientName: '=HYPERLINK("x") "Maria"',
    clientEmail: "maria@example.com",
    clientDocument: null,
    productId: null,
    productName: "Clube; do livro",
    startedAt: new Date("2026-09-10T15:00:00Z"),
    gatewayRecord: null,
    gatewayStatus: "ACTIVE",
    gatewayRecordAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  },
  periodicity: { type: "MONTHS", every: 1 },
  charges: [],
  state: { state: "active", lastPaidAt: null },
  startedAt: new Date("2026-09-10T15:00:00Z"),
  nextCharge: { at: new Date("2026-11-10T15:00:00Z"), calculated: true },
  lastPaidAt: new Date("2026-10-10T15:00:00Z"),
  paid: { count: 2, totalCents: 9980 },
  confirming: 0,
});

describe("subscriptions CSV", () => {
  it("writes Excel-in-Brazil CSV: BOM, semicolons, CRLF, quoted text guarded against formulas, amounts twice", () => {
    const csv = subscriptionsCsv([view(), view({ amountCents: null, gatewayStatus: null })], {
      state: () => "ativa",
      periodicity: () => "mensal",
    });
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const lines = csv.slice(1).split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(lines[0]).toBe(SUBSCRIPTIONS_CSV_HEADER.join(";"));
    expect(lines[1]).toBe(
      [
        '"s1"',
        '"sub_1"',
        '"assin-1"',
        '"\'=HYPERLINK(""x"") ""Maria"""',
        '"maria@example.com"',
        "",
        '"Clube; do livro"',
        '"PIX"',
        "49,90",
        "4990",
        '"mensal"',
        '"ativa"',
        '"ACTIVE"',
        "2026-09-10T15:00:00.000Z",
        "2026-11-10T15:00:00.000Z",
        "sim",
        "2026-10-10T15:00:00.000Z",
        "2",
        "99,80",
        "9980",
      ].join(";"),
    );
    // What was not told stays empty, never a guess.
    expect(lines[2]).toContain(';"PIX";;;"mensal";"ativa";;2026-09-10');
  });
});
