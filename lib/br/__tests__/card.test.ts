import { describe, expect, it } from "vitest";
import {
  cardBin,
  cardBrand,
  cardLast4,
  cardNumberLengthOk,
  cvvLengthFor,
  isExpiryNotPast,
  luhnValid,
  maskCardNumber,
  normalizeCardExpiry,
} from "@/lib/br";

/** Appends the Luhn check digit so brand tests use realistic numbers. */
function withLuhn(partial: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(partial + d)) return partial + d;
  throw new Error("unreachable");
}

describe("cards", () => {
  it.each([
    ["4111111111111111", "visa"],
    ["4242424242424242", "visa"],
    ["5555555555554444", "mastercard"],
    ["4000000000000002", "visa"],
  ])("%s is Luhn-valid %s", (number, brand) => {
    expect(luhnValid(number)).toBe(true);
    expect(cardBrand(number)).toBe(brand);
    expect(cardNumberLengthOk(number, cardBrand(number))).toBe(true);
  });

  it("rejects Luhn failures", () => {
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(luhnValid("4111 1111 1111 1111")).toBe(true);
    expect(luhnValid("4111a11111111111")).toBe(false);
    expect(luhnValid("")).toBe(false);
  });

  it.each([
    ["401178", "elo"],
    ["438935", "elo"],
    ["451416", "elo"],
    ["457632", "elo"],
    ["504175", "elo"],
    ["506699", "elo"],
    ["506778", "elo"],
    ["509123", "elo"],
    ["627780", "elo"],
    ["636368", "elo"],
    ["650031", "elo"],
    ["650485", "elo"],
    ["651679", "elo"],
    ["655058", "elo"],
    ["606282", "hipercard"],
    ["384100", "hipercard"],
    ["384140", "hipercard"],
    ["384160", "hipercard"],
    ["341111", "amex"],
    ["371449", "amex"],
    ["300000", "diners"],
    ["305693", "diners"],
    ["361234", "diners"],
    ["381234", "diners"],
    ["384101", "diners"],
    ["401177", "visa"],
    ["451417", "visa"],
    ["510000", "mastercard"],
    ["550000", "mastercard"],
    ["222100", "mastercard"],
    ["272099", "mastercard"],
    ["650034", null],
    ["506698", null],
    ["560000", null],
    ["272100", null],
    ["222000", null],
    ["306000", null],
    ["601100", null],
  ])("BIN %s → %s", (bin, brand) => {
    expect(cardBrand(withLuhn(bin.padEnd(15, "0")))).toBe(brand);
  });

  it("knows lengths and CVV sizes", () => {
    expect(cvvLengthFor("amex")).toBe(4);
    expect(cvvLengthFor("visa")).toBe(3);
    expect(cvvLengthFor("elo")).toBe(3);
    expect(cardNumberLengthOk("378282246310005", "amex")).toBe(true);
    expect(cardNumberLengthOk("3782822463100051", "amex")).toBe(false);
    expect(cardNumberLengthOk("555555555555444", "mastercard")).toBe(false);
    expect(cardNumberLengthOk("30569309025904", "diners")).toBe(true);
  });

  it("never shows more than the first 6 and last 4", () => {
    expect(maskCardNumber("4111 1111 1111 1111")).toBe("411111••••••1111");
    expect(maskCardNumber("378282246310005")).toBe("378282•••••0005");
    expect(maskCardNumber("1234567890")).toBe("••••••7890");
    expect(maskCardNumber("123")).toBe("•••");
    expect(cardLast4("4111111111111111")).toBe("1111");
    expect(cardBin("4111111111111111")).toBe("411111");
    expect(cardBin("41111")).toBe("");
  });

  it("keeps a card valid through the end of its expiry month", () => {
    const now = new Date(2026, 10, 21, 12);
    expect(isExpiryNotPast("2026-11", now)).toBe(true);
    expect(isExpiryNotPast("2026-11", new Date(2026, 10, 30, 23, 59))).toBe(true);
    expect(isExpiryNotPast("2026-12", now)).toBe(true);
    expect(isExpiryNotPast("2031-01", now)).toBe(true);
    expect(isExpiryNotPast("2026-10", now)).toBe(false);
    expect(isExpiryNotPast("2025-12", now)).toBe(false);
    expect(isExpiryNotPast("2026-13", now)).toBe(false);
    expect(isExpiryNotPast("11/26", now)).toBe(false);
  });

  it("normalises typed expiry dates", () => {
    expect(normalizeCardExpiry("12/29")).toBe("2029-12");
    expect(normalizeCardExpiry("1/2030")).toBe("2030-01");
    expect(normalizeCardExpiry("2029-12")).toBe("2029-12");
    expect(normalizeCardExpiry("13/29")).toBeNull();
    expect(normalizeCardExpiry("1229")).toBeNull();
  });
});
