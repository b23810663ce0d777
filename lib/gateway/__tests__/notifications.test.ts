import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  canonicalJson,
  paymentDedupeKey,
  rawDedupeKey,
  redactingReplacer,
  redactPayload,
  reportedAt,
  tokensEqual,
} from "@/lib/gateway/notifications";

describe("webhook payload helpers", () => {
  it("canonical JSON does not depend on key order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(object));
      }),
    );
  });

  it("identifies a notification by event, transaction id, status and its own timestamps only", () => {
    const tx = { id: "tx_1", status: "COMPLETED", createdAt: "2026-01-01T00:00:00Z", payedAt: "2026-01-01T00:05:00Z", amount: 10 };
    const key = paymentDedupeKey("TRANSACTION_PAID", tx);
    expect(paymentDedupeKey("TRANSACTION_PAID", { ...tx, amount: 11, pixInformation: { qrCode: "x" } })).toBe(key);
    expect(paymentDedupeKey("TRANSACTION_CREATED", tx)).not.toBe(key);
    expect(paymentDedupeKey("TRANSACTION_PAID", { ...tx, status: "PAID" })).not.toBe(key);
    expect(paymentDedupeKey("TRANSACTION_PAID", { ...tx, payedAt: "2026-01-01T00:06:00Z" })).not.toBe(key);
    expect(paymentDedupeKey("TRANSACTION_PAID", { ...tx, id: "tx_2" })).not.toBe(key);
  });

  it("leaves the token out of the key of other shapes", () => {
    expect(rawDedupeKey("unknown", { a: 1, token: "x" })).toBe(rawDedupeKey("unknown", { token: "y", a: 1 }));
    expect(rawDedupeKey("unknown", { a: 1 })).not.toBe(rawDedupeKey("unknown", { a: 2 }));
  });

  it("redacts tokens at any depth and keeps the rest", () => {
    expect(redactPayload({ token: "secret", a: { webhookToken: "w", b: [{ token: "t" }] }, c: 1 })).toEqual({
      token: "[redacted]",
      a: { webhookToken: "[redacted]", b: [{ token: "[redacted]" }] },
      c: 1,
    });
  });

  it("writes the same redacted JSON while stringifying as redactPayload makes by copying", () => {
    const payload = { token: "secret", a: { webhookToken: "w", b: [{ token: "t" }, "token"] }, c: 1, tokens: ["x"] };
    const written = JSON.stringify({ payload }, redactingReplacer);
    expect(written).not.toContain("secret");
    expect(JSON.parse(written)).toEqual({ payload: redactPayload(payload) });
  });

  it("takes the latest of the transaction's own timestamps, ignoring garbage", () => {
    expect(reportedAt({ createdAt: "2026-01-01T00:00:00Z", payedAt: "2026-01-02T00:00:00Z" })?.toISOString()).toBe(
      "2026-01-02T00:00:00.000Z",
    );
    expect(reportedAt({ createdAt: "not a date" })).toBeNull();
    expect(reportedAt({})).toBeNull();
  });

  it("compares tokens exactly, whatever their length", () => {
    expect(tokensEqual("wht_abc", "wht_abc")).toBe(true);
    expect(tokensEqual("wht_ab", "wht_abc")).toBe(false);
    expect(tokensEqual("", "")).toBe(false);
    expect(tokensEqual(123, "123")).toBe(false);
  });
});
