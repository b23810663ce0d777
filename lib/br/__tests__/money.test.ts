import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatBrl, formatMoneyInput, fromCents, hasAtMostTwoDecimals, parseMoneyInput, roundMoney, toCents } from "@/lib/br";

describe("money", () => {
  it("is robust to float error", () => {
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true);
    expect(hasAtMostTwoDecimals(1.15 * 3)).toBe(true);
    expect(hasAtMostTwoDecimals(10)).toBe(true);
    expect(hasAtMostTwoDecimals(10.5)).toBe(true);
    expect(hasAtMostTwoDecimals(10.001)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    expect(hasAtMostTwoDecimals(Infinity)).toBe(false);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(-2.5)).toBe(-250);
    expect(roundMoney(0.1 + 0.2)).toBe(0.3);
    expect(roundMoney(2.675)).toBe(2.68);
    expect(fromCents(123456)).toBe(1234.56);
  });

  it("round-trips centavos", () => {
    fc.assert(
      fc.property(fc.integer({ min: -99_999_999_999, max: 99_999_999_999 }), (cents) => {
        expect(toCents(fromCents(cents))).toBe(cents);
        expect(hasAtMostTwoDecimals(fromCents(cents))).toBe(true);
        expect(parseMoneyInput(formatMoneyInput(fromCents(cents)))).toBe(fromCents(cents));
      }),
    );
  });

  it.each([
    ["1.234,56", 1234.56],
    ["1234,56", 1234.56],
    ["1234.56", 1234.56],
    ["R$ 10,00", 10],
    ["R$10", 10],
    [" 0,5 ", 0.5],
    ["1.234", 1234],
    ["1.000.000,01", 1000000.01],
    ["1,234.56", 1234.56],
    ["-5,00", -5],
  ])("parses %j", (input, expected) => {
    expect(parseMoneyInput(input)).toBe(expected);
  });

  it.each(["", "abc", "1,234", "1.234,567", "12.34.56", "1,2,3", "R$", "10 reais", "1e3", "NaN", "12,3a"])("rejects %j", (input) => {
    expect(parseMoneyInput(input)).toBeNull();
  });

  it("formats for inputs and display", () => {
    expect(formatMoneyInput(1234.56)).toBe("1.234,56");
    expect(formatMoneyInput(0.5)).toBe("0,50");
    expect(formatMoneyInput(1000000)).toBe("1.000.000,00");
    expect(formatMoneyInput(-3.2)).toBe("-3,20");
    expect(formatBrl(1234.5)).toBe("R$ 1.234,50");
  });
});
