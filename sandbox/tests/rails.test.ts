import { describe, expect, it } from "vitest";
import { parseBrCode } from "../../lib/br/brcode";
import { parseBoletoBarcode } from "../../lib/br/boleto";
import { authorizeCard } from "../rails/card";
import { cryptoAmountFor, depositAddressFor, resolveCrypto } from "../rails/crypto";
import { chargeFeeCents, withdrawFeeCents } from "../rails/fees";
import { pixCodeFor } from "../rails/pix";
import { issueBoleto } from "../rails/boleto";
import { addPeriod } from "../domain/subscriptions";
import { FaultRegistry } from "../faults";
import { retryDelayMs } from "../webhooks/worker";
import { TRANSITIONS } from "../domain/transactions";

describe("pix rail", () => {
  it("builds a dynamic BR Code with the location and the amount", () => {
    const { code, txid } = pixCodeFor({
      publicUrl: "https://sandbox.example.com:8443/",
      transactionId: "8b3da2f3-9a41-40d1-a91a-bd93113bd441",
      amount: 1999.9,
      merchantName: "Loja São João da Esquina Grande",
    });
    expect(txid).toBe("8b3da2f39a4140d1a91abd931");
    const parsed = parseBrCode(code);
    expect(parsed.ok).toBe(true);
    expect(code).toContain("2554sandbox.example.com:8443/pix/8b3da2f39a4140d1a91abd931");
    expect(code).toContain("54071999.90");
    expect(code).toContain("Loja Sao Joao");
  });
});

describe("boleto rail", () => {
  it("encodes amount and due date and is deterministic per transaction", () => {
    const a = issueBoleto({ transactionId: "t-1", amountCents: 123456, dueDate: "2027-03-10" });
    const b = issueBoleto({ transactionId: "t-1", amountCents: 123456, dueDate: "2027-03-10" });
    expect(a.barcode).toBe(b.barcode);
    expect(parseBoletoBarcode(a.barcode, new Date("2027-03-01"))).toMatchObject({
      bankCode: "237",
      amountCents: 123456,
      dueDate: "2027-03-10",
    });
  });
});

describe("crypto rail", () => {
  it("resolves aliases and converts with the fixed rates", () => {
    const r = resolveCrypto({ currency: "usd", cryptoCurrency: "usdt", network: "trc20" });
    expect(r).toMatchObject({ ok: true, quote: { network: "TRON", cryptoCurrency: "USDT", fiatCurrency: "USD" } });
    if (!r.ok) return;
    expect(cryptoAmountFor(r.quote, 100)).toBe(100);
    const btc = resolveCrypto({ currency: "BRL", cryptoCurrency: "BTC", network: "BITCOIN" });
    if (!btc.ok) throw new Error("expected ok");
    expect(cryptoAmountFor(btc.quote, 550)).toBe(0.001);
  });

  it("names the bad field", () => {
    expect(resolveCrypto({ currency: "BRL", cryptoCurrency: "ETH", network: "TRON" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^network/),
    });
    expect(resolveCrypto({ currency: "BRL", cryptoCurrency: "XRP", network: "ETH" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^cryptoCurrency/),
    });
  });

  it("derives stable addresses per seed", () => {
    expect(depositAddressFor("ETHEREUM", "s")).toBe(depositAddressFor("ETHEREUM", "s"));
    expect(depositAddressFor("ETHEREUM", "s")).not.toBe(depositAddressFor("ETHEREUM", "t"));
  });
});

describe("card rail", () => {
  it("keeps brand and last 4 only", () => {
    const r = authorizeCard({ number: "5555555555554444", owner: "X", expiresAt: "2030-01" }, new Date("2026-01-01"));
    expect(r).toEqual({ ok: true, outcome: "approve", stored: { brand: "mastercard", last4: "4444", bin: "555555", owner: "X" } });
    expect(JSON.stringify(r)).not.toContain("5555555555554444");
  });

  it("maps the test cards and expired cards", () => {
    const at = new Date("2026-06-15");
    expect(authorizeCard({ number: "4000000000009995", owner: "X", expiresAt: "2030-01" }, at)).toMatchObject({
      outcome: "insufficient_funds",
    });
    expect(authorizeCard({ number: "4000000000000002", owner: "X", expiresAt: "2030-01" }, at)).toMatchObject({ outcome: "declined" });
    expect(authorizeCard({ number: "4111111111111111", owner: "X", expiresAt: "2026-05" }, at)).toMatchObject({ outcome: "expired" });
    expect(authorizeCard({ number: "4111111111111112", owner: "X", expiresAt: "2030-01" }, at)).toMatchObject({ ok: false });
  });
});

describe("fees", () => {
  it("follows the documented rules", () => {
    expect(chargeFeeCents("PIX", 10_000)).toBe(99);
    expect(chargeFeeCents("CREDIT_CARD", 10_000)).toBe(399 + 39);
    expect(chargeFeeCents("CREDIT_CARD", 10_000, 3)).toBe(699 + 39);
    expect(chargeFeeCents("BOLETO", 10_000)).toBe(349);
    expect(chargeFeeCents("BOLETO", 100)).toBe(100);
    expect(chargeFeeCents("CRYPTO", 10_000)).toBe(150);
    expect(withdrawFeeCents()).toBe(100);
  });
});

describe("subscriptions calendar", () => {
  it("adds periods, clamping month ends", () => {
    const jan31 = new Date("2027-01-31T10:00:00Z");
    expect(addPeriod(jan31, "MONTHS", 1).toISOString()).toBe("2027-02-28T10:00:00.000Z");
    expect(addPeriod(jan31, "YEARS", 1).toISOString()).toBe("2028-01-31T10:00:00.000Z");
    expect(addPeriod(jan31, "WEEKS", 2).toISOString()).toBe("2027-02-14T10:00:00.000Z");
    expect(addPeriod(jan31, "DAYS", 1).toISOString()).toBe("2027-02-01T10:00:00.000Z");
  });
});

describe("faults and retries", () => {
  it("consumes queued faults in order, per producer", () => {
    const f = new FaultRegistry();
    f.add("a", { status: 500, times: 2 });
    f.add("a", { dropConnection: true, times: 1 });
    expect(f.take("b")).toBeUndefined();
    expect(f.take("a")).toEqual({ status: 500 });
    expect(f.take("a")).toEqual({ status: 500 });
    expect(f.take("a")).toEqual({ dropConnection: true });
    expect(f.take("a")).toBeUndefined();
  });

  it("backs off exponentially", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(2000, n))).toEqual([2000, 4000, 8000, 16000]);
    expect(retryDelayMs(2000, 30)).toBe(3_600_000);
  });

  it("has terminal states with no way out", () => {
    const sources = new Set(Object.values(TRANSITIONS).flatMap((t) => t.from));
    for (const terminal of ["FAILED", "CANCELED", "REFUNDED", "CHARGED_BACK"]) expect(sources.has(terminal)).toBe(false);
  });
});
