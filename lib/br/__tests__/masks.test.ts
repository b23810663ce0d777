import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isValidCnpj,
  isValidCpf,
  maskCardExpiry,
  maskCardNumberInput,
  maskCep,
  maskCpfCnpj,
  maskMoney,
  maskPhone,
  parseMoneyInput,
} from "@/lib/br";

const anyInput = fc.string({ unit: fc.constantFrom(..."0123456789abcXYZ.-/() ,".split("")), maxLength: 30 });

describe("input masks", () => {
  it("masks CPF then switches to CNPJ", () => {
    expect(maskCpfCnpj("1234")).toBe("123.4");
    expect(maskCpfCnpj("12345678909")).toBe("123.456.789-09");
    expect(maskCpfCnpj("112223330001")).toBe("11.222.333/0001");
    expect(maskCpfCnpj("11222333000181")).toBe("11.222.333/0001-81");
    expect(maskCpfCnpj("11222333000181999")).toBe("11.222.333/0001-81");
    expect(maskCpfCnpj("12abc34501de35")).toBe("12.ABC.345/01DE-35");
    expect(maskCpfCnpj("12a")).toBe("12.A");
    expect(isValidCpf(maskCpfCnpj("52998224725"))).toBe(true);
    expect(isValidCnpj(maskCpfCnpj("12ABC34501DE35"))).toBe(true);
  });

  it("masks phone numbers", () => {
    expect(maskPhone("1")).toBe("(1");
    expect(maskPhone("11")).toBe("(11");
    expect(maskPhone("119")).toBe("(11) 9");
    expect(maskPhone("1133334444")).toBe("(11) 3333-4444");
    expect(maskPhone("11999999999")).toBe("(11) 99999-9999");
    expect(maskPhone("119999999991")).toBe("(11) 99999-9999");
  });

  it("masks CEP, money, card numbers and expiry", () => {
    expect(maskCep("01310100")).toBe("01310-100");
    expect(maskCep("0131")).toBe("0131");
    expect(maskMoney("")).toBe("");
    expect(maskMoney("1")).toBe("0,01");
    expect(maskMoney("123456")).toBe("1.234,56");
    expect(maskMoney("R$ 1.234,567")).toBe("12.345,67");
    // A typed zero stays, so the schema can say the amount must be above zero.
    expect(maskMoney("0")).toBe("0");
    expect(maskMoney("000")).toBe("0,00");
    expect(maskMoney("0,0")).toBe("0");
    expect(maskCardNumberInput("4111111111111111")).toBe("4111 1111 1111 1111");
    expect(maskCardNumberInput("378282246310005")).toBe("3782 822463 10005");
    expect(maskCardNumberInput("37828224631000599")).toBe("3782 822463 10005");
    expect(maskCardExpiry("1229")).toBe("12/29");
  });

  it("are idempotent", () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        for (const mask of [maskCpfCnpj, maskPhone, maskCep, maskMoney, maskCardNumberInput, maskCardExpiry]) {
          const once = mask(input);
          expect(mask(once)).toBe(once);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("money mask output parses back to the typed centavos", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999_999 }), (cents) => {
        expect(parseMoneyInput(maskMoney(String(cents)))).toBe(cents / 100);
      }),
    );
  });
});
