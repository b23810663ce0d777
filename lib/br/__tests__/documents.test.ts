import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  documentKind,
  formatCnpj,
  formatCpf,
  formatDocument,
  generateCnpj,
  generateCpf,
  isValidCnpj,
  isValidCpf,
  isValidDocument,
  normalizeCnpj,
  normalizeDocument,
  onlyDigits,
  stripAccents,
} from "@/lib/br";

/** A deterministic rng from a fast-check seed, so failures replay. */
const rngFrom = (values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length];
};
const rngArb = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 30 });

function changeOneChar(value: string, index: number, alphabet: string): string[] {
  return alphabet
    .split("")
    .filter((c) => c !== value[index])
    .map((c) => value.slice(0, index) + c + value.slice(index + 1));
}

describe("text helpers", () => {
  it("keeps only digits", () => {
    expect(onlyDigits("123.456.789-09")).toBe("12345678909");
    expect(onlyDigits("abc")).toBe("");
  });
  it("strips accents", () => {
    expect(stripAccents("São Paulo – Açaí, Ñandú, ÊÖ")).toBe("Sao Paulo – Acai, Nandu, EO");
  });
});

describe("CPF", () => {
  it.each(["123.456.789-09", "529.982.247-25", "12345678909", "52998224725"])("accepts %s", (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    "123.456.789-00",
    "529.982.247-52",
    "1234567890",
    "123456789091",
    "111.111.111-11",
    "00000000000",
    "99999999999",
    "abc.def.ghi-jk",
    "123-456-789.09",
    "",
  ])("rejects %s", (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it("formats", () => {
    expect(formatCpf("12345678909")).toBe("123.456.789-09");
    expect(formatCpf("123.456.789-09")).toBe("123.456.789-09");
    expect(formatCpf("123")).toBe("123");
  });

  it("generated CPFs are valid and a changed check digit breaks them", () => {
    fc.assert(
      fc.property(rngArb, fc.integer({ min: 9, max: 10 }), (values, index) => {
        const cpf = generateCpf(rngFrom(values));
        expect(cpf).toMatch(/^\d{11}$/);
        expect(isValidCpf(cpf)).toBe(true);
        expect(isValidCpf(formatCpf(cpf))).toBe(true);
        for (const changed of changeOneChar(cpf, index, "0123456789")) expect(isValidCpf(changed)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("catches nearly every single changed base digit", () => {
    // Residues 0 and 1 both give check digit 0, so a few single changes slip through by design.
    let changes = 0;
    let caught = 0;
    fc.assert(
      fc.property(rngArb, fc.integer({ min: 0, max: 8 }), (values, index) => {
        const cpf = generateCpf(rngFrom(values));
        for (const changed of changeOneChar(cpf, index, "0123456789")) {
          changes++;
          if (!isValidCpf(changed)) caught++;
        }
      }),
      { numRuns: 300 },
    );
    expect(caught / changes).toBeGreaterThan(0.95);
    expect(isValidCpf("00000900001")).toBe(true);
    expect(isValidCpf("10000900001")).toBe(true);
  });
});

describe("CNPJ", () => {
  it.each(["11.222.333/0001-81", "11222333000181", "12.ABC.345/01DE-35", "12ABC34501DE35", "12.abc.345/01de-35"])("accepts %s", (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    "11.222.333/0001-80",
    "12.ABC.345/01DE-36",
    "12.ABC.345/01DE-3A",
    "1122233300018",
    "00000000000000",
    "AAAAAAAAAAAA00",
    "11.222.333/0001-8!",
    "",
  ])("rejects %s", (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it("normalises and formats", () => {
    expect(normalizeCnpj(" 12.abc.345/01de-35 ")).toBe("12ABC34501DE35");
    expect(formatCnpj("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatCnpj("12abc34501de35")).toBe("12.ABC.345/01DE-35");
  });

  it("generated CNPJs (numeric and alphanumeric) are valid and a changed check digit breaks them", () => {
    fc.assert(
      fc.property(rngArb, fc.boolean(), fc.integer({ min: 12, max: 13 }), (values, alphanumeric, index) => {
        const cnpj = generateCnpj(rngFrom(values), { alphanumeric });
        expect(cnpj).toMatch(alphanumeric ? /^[0-9A-Z]{12}\d{2}$/ : /^\d{14}$/);
        expect(isValidCnpj(cnpj)).toBe(true);
        expect(isValidCnpj(formatCnpj(cnpj))).toBe(true);
        for (const changed of changeOneChar(cnpj, index, "0123456789")) expect(isValidCnpj(changed)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("catches nearly every single changed base digit of a numeric CNPJ", () => {
    let changes = 0;
    let caught = 0;
    fc.assert(
      fc.property(rngArb, fc.integer({ min: 0, max: 11 }), (values, index) => {
        const cnpj = generateCnpj(rngFrom(values));
        for (const changed of changeOneChar(cnpj, index, "0123456789")) {
          changes++;
          if (!isValidCnpj(changed)) caught++;
        }
      }),
      { numRuns: 300 },
    );
    expect(caught / changes).toBeGreaterThan(0.95);
  });

  it("cannot tell characters 11 apart in an alphanumeric CNPJ (F = 22 ≡ 0 mod 11)", () => {
    expect(isValidCnpj("00000000000191")).toBe(true);
    expect(isValidCnpj("F0000000000191")).toBe(true);
    expect(isValidCnpj("10000000000191")).toBe(false);
  });
});

describe("documents", () => {
  it("tells CPF from CNPJ", () => {
    expect(documentKind("123.456.789-09")).toBe("cpf");
    expect(documentKind("11.222.333/0001-81")).toBe("cnpj");
    expect(documentKind("12.ABC.345/01DE-35")).toBe("cnpj");
    expect(documentKind("123.456.789-00")).toBeNull();
    expect(isValidDocument("52998224725")).toBe(true);
    expect(isValidDocument("nope")).toBe(false);
  });

  it("formats and normalises", () => {
    expect(formatDocument("12345678909")).toBe("123.456.789-09");
    expect(formatDocument("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatDocument(" bad ")).toBe("bad");
    expect(normalizeDocument("123.456.789-09")).toBe("12345678909");
    expect(normalizeDocument("12.abc.345/01de-35")).toBe("12ABC34501DE35");
  });
});
