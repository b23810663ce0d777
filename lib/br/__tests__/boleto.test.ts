import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  barcodeToDigitableLine,
  buildBoletoBarcode,
  digitableLineToBarcode,
  dueDateFactor,
  factorToDate,
  formatDigitableLine,
  isValidBarcode,
  isValidDigitableLine,
  itfBars,
  mod10,
  parseBoletoBarcode,
} from "@/lib/br";

const BARCODE = "34196790600001000002220000005566385101214000";
const LINE = "34192.22009 00005.566385 51012.140003 6 79060000100000";
const OTHER_BARCODE = "23797404300001240200448056168623793601105800";

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("boleto vectors", () => {
  it("converts barcode ↔ digitable line", () => {
    expect(isValidBarcode(BARCODE)).toBe(true);
    expect(barcodeToDigitableLine(BARCODE)).toBe(LINE.replace(/\D/g, ""));
    expect(formatDigitableLine(barcodeToDigitableLine(BARCODE)!)).toBe(LINE);
    expect(digitableLineToBarcode(LINE)).toBe(BARCODE);
    expect(digitableLineToBarcode(LINE.replace(/\D/g, ""))).toBe(BARCODE);
    expect(isValidDigitableLine(LINE)).toBe(true);
  });

  it("parses the barcode fields", () => {
    expect(parseBoletoBarcode(BARCODE, "2019-05-01")).toEqual({
      bankCode: "341",
      currencyCode: "9",
      checkDigit: "6",
      factor: "7906",
      dueDate: "2019-05-31",
      amountCents: 100000,
      freeField: "2220000005566385101214000",
    });
    expect(parseBoletoBarcode(LINE, "2019-05-01")?.amountCents).toBe(100000);
    expect(dueDateFactor("2019-05-31")).toBe("7906");
  });

  it("rebuilds the vector from its parts", () => {
    expect(
      buildBoletoBarcode({ bankCode: "341", amountCents: 100000, dueDate: "2019-05-31", freeField: "2220000005566385101214000" }),
    ).toBe(BARCODE);
  });

  it("accepts the second barcode and round-trips it", () => {
    expect(isValidBarcode(OTHER_BARCODE)).toBe(true);
    const line = barcodeToDigitableLine(OTHER_BARCODE)!;
    expect(isValidDigitableLine(line)).toBe(true);
    expect(digitableLineToBarcode(formatDigitableLine(line))).toBe(OTHER_BARCODE);
    expect(parseBoletoBarcode(OTHER_BARCODE)?.bankCode).toBe("237");
    expect(parseBoletoBarcode(OTHER_BARCODE)?.amountCents).toBe(124020);
  });

  it("rejects broken codes", () => {
    expect(isValidBarcode(BARCODE.slice(0, 4) + "7" + BARCODE.slice(5))).toBe(false);
    expect(isValidBarcode(BARCODE.slice(0, 43))).toBe(false);
    expect(isValidBarcode(BARCODE.slice(0, 3) + "0" + BARCODE.slice(4))).toBe(false);
    expect(isValidBarcode("8" + BARCODE.slice(1))).toBe(false);
    expect(barcodeToDigitableLine(BARCODE.replace("3419", "3418"))).toBeNull();
    // each field's mod-10 digit
    for (const index of [9, 20, 31, 32]) {
      const digits = LINE.replace(/\D/g, "");
      const broken = digits.slice(0, index) + ((Number(digits[index]) + 1) % 10) + digits.slice(index + 1);
      expect(isValidDigitableLine(broken)).toBe(false);
      expect(digitableLineToBarcode(broken)).toBeNull();
    }
    expect(isValidDigitableLine(LINE.slice(0, -1))).toBe(false);
    expect(isValidDigitableLine(LINE + "x")).toBe(false);
    expect(parseBoletoBarcode("123")).toBeNull();
  });

  it("computes mod 10 as documented", () => {
    expect(mod10("341922200")).toBe("9");
    expect(mod10("0000556638")).toBe("5");
    expect(mod10("5101214000")).toBe("3");
  });

  it("refuses impossible input", () => {
    const base = { bankCode: "001", amountCents: 100, dueDate: "2030-01-01", freeField: "0".repeat(25) };
    expect(() => buildBoletoBarcode({ ...base, bankCode: "1" })).toThrow(RangeError);
    expect(() => buildBoletoBarcode({ ...base, freeField: "1" })).toThrow(RangeError);
    expect(() => buildBoletoBarcode({ ...base, amountCents: 1.5 })).toThrow(RangeError);
    expect(() => buildBoletoBarcode({ ...base, amountCents: 10_000_000_000 })).toThrow(RangeError);
    expect(() => buildBoletoBarcode({ ...base, dueDate: "2030-02-30" })).toThrow(RangeError);
  });
});

describe("due-date factor", () => {
  it("follows the 2025-02-22 rollover", () => {
    expect(dueDateFactor(null)).toBe("0000");
    expect(dueDateFactor("2000-07-03")).toBe("1000");
    expect(dueDateFactor("2025-02-21")).toBe("9999");
    expect(dueDateFactor("2025-02-22")).toBe("1000");
    expect(dueDateFactor("2025-02-23")).toBe("1001");
    expect(dueDateFactor(new Date(Date.UTC(2019, 4, 31, 12)))).toBe("7906");
    expect(() => dueDateFactor("1999-01-01")).toThrow(RangeError);
  });

  it("decodes to the candidate nearest today", () => {
    expect(factorToDate("1000", "2025-03-01")).toBe("2025-02-22");
    expect(factorToDate("1000", "2001-01-01")).toBe("2000-07-03");
    expect(factorToDate("9999", "2025-03-01")).toBe("2025-02-21");
    expect(factorToDate("0000", "2025-03-01")).toBeNull();
    expect(factorToDate(7906, "2019-01-01")).toBe("2019-05-31");
  });

  it("round-trips dates within half a cycle of today, across the rollover", () => {
    const rollover = Date.UTC(2025, 1, 22);
    fc.assert(
      // At most 4,499 days apart: exactly half the 9,000-day cycle away, two dates are equally near.
      fc.property(fc.integer({ min: -2999, max: 2999 }), fc.integer({ min: -1500, max: 1500 }), (dueOffset, todayOffset) => {
        const due = isoDay(rollover + dueOffset * DAY);
        const today = isoDay(rollover + todayOffset * DAY);
        const factor = dueDateFactor(due);
        expect(Number(factor)).toBeGreaterThanOrEqual(1000);
        expect(Number(factor)).toBeLessThanOrEqual(9999);
        expect(factorToDate(factor, today)).toBe(due);
      }),
      { numRuns: 500 },
    );
  });

  it("round-trips build → line → barcode", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{3}$/),
        fc.integer({ min: 0, max: 9_999_999_999 }),
        fc.option(fc.integer({ min: -4000, max: 4000 }), { nil: null }),
        fc.stringMatching(/^\d{25}$/),
        (bankCode, amountCents, dueOffset, freeField) => {
          const dueDate = dueOffset === null ? null : isoDay(Date.UTC(2025, 1, 22) + dueOffset * DAY);
          const barcode = buildBoletoBarcode({ bankCode, amountCents, dueDate, freeField });
          expect(barcode).toMatch(/^\d{44}$/);
          expect(isValidBarcode(barcode)).toBe(true);
          const line = barcodeToDigitableLine(barcode)!;
          expect(isValidDigitableLine(formatDigitableLine(line))).toBe(true);
          expect(formatDigitableLine(line)).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
          expect(digitableLineToBarcode(formatDigitableLine(line))).toBe(barcode);
          const parsed = parseBoletoBarcode(barcode, "2025-02-22")!;
          expect(parsed).toMatchObject({ bankCode, amountCents, freeField, dueDate });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("ITF", () => {
  it("encodes the boleto barcode with guards", () => {
    const { bars, width } = itfBars(BARCODE);
    expect(bars).toHaveLength(2 + 22 * 5 + 2);
    expect(width).toBe(4 + 22 * 18 + 5);
    expect(bars.slice(0, 2)).toEqual([
      { x: 0, width: 1 },
      { x: 2, width: 1 },
    ]);
    expect(bars.at(-2)).toEqual({ x: width - 5, width: 3 });
    expect(bars.at(-1)).toEqual({ x: width - 1, width: 1 });
  });

  it("encodes a pair by interleaving bars and spaces", () => {
    // "38": 3 = WWNNN on bars, 8 = WNNWN on spaces
    const { bars } = itfBars("38");
    expect(bars.slice(2, 7)).toEqual([
      { x: 4, width: 3 },
      { x: 10, width: 3 },
      { x: 14, width: 1 },
      { x: 16, width: 1 },
      { x: 20, width: 1 },
    ]);
  });

  it("has 5 bars per digit pair plus 4 guard bars, and no overlap", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(\d\d){1,30}$/), (digits) => {
        const { bars, width } = itfBars(digits, { narrow: 2, wide: 5 });
        expect(bars).toHaveLength((digits.length / 2) * 5 + 4);
        expect(width).toBe(8 + digits.length * (3 * 2 + 2 * 5) + 9);
        for (let i = 1; i < bars.length; i++) expect(bars[i].x).toBeGreaterThan(bars[i - 1].x + bars[i - 1].width - 1);
        expect(bars.filter((b) => b.width === 5)).toHaveLength(digits.length + 1);
      }),
    );
  });

  it("refuses odd or non-numeric input", () => {
    expect(() => itfBars("123")).toThrow(RangeError);
    expect(() => itfBars("")).toThrow(RangeError);
    expect(() => itfBars("1a")).toThrow(RangeError);
  });
});
