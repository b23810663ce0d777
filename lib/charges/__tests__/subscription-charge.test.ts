import { describe, expect, it } from "vitest";
import { firstChargeOf } from "@/lib/charges/subscription-charge";

describe("a subscription's first charge, read from its (undocumented) creation answer", () => {
  it("takes the transaction id at the top, with the charge's own answer", () => {
    const pix = { transactionId: "tx-1", status: "OK", pix: { code: "000201…" } };
    expect(firstChargeOf({ subscriptionId: "sub_1", status: "ACTIVE", transactionId: "tx-1", charge: pix })).toEqual({
      transactionId: "tx-1",
      answer: pix,
    });
  });

  it("falls back to the id inside the charge", () => {
    expect(firstChargeOf({ charge: { transactionId: "tx-2" } }).transactionId).toBe("tx-2");
  });

  it("names no charge when the answer does not (a first charge in a later period, another gateway's shape)", () => {
    expect(firstChargeOf({ subscriptionId: "sub_1", transactionId: null, charge: null })).toEqual({ transactionId: null, answer: {} });
    expect(firstChargeOf({ id: 42, transactionId: "" })).toEqual({ transactionId: null, answer: {} });
    expect(firstChargeOf(null)).toEqual({ transactionId: null, answer: {} });
    expect(firstChargeOf({ charge: ["not", "an", "object"] }).answer).toEqual({});
  });
});
