import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  zCardExpiry,
  zCardNumber,
  zCep,
  zCnpj,
  zCpf,
  zCvv,
  zDocument,
  zEmail,
  zIPv4,
  zMoney,
  zPhone,
  zPixKey,
  zPixKeyEntry,
  zUf,
} from "@/lib/br/zod";
import { lookup } from "@/lib/i18n/translate";
import { dictionaries } from "@/lib/i18n/messages";
const hasMessage = (locale: "pt-BR" | "en", key: string) => lookup(dictionaries[locale], key) !== undefined;
import { br } from "@/lib/i18n/messages/br";

function firstError(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0].message;
}

describe("zod schemas", () => {
  it("normalise valid documents", () => {
    expect(zCpf.parse(" 123.456.789-09 ")).toBe("12345678909");
    expect(zCnpj.parse("12.abc.345/01de-35")).toBe("12ABC34501DE35");
    expect(zDocument.parse("529.982.247-25")).toBe("52998224725");
    expect(zDocument.parse("11.222.333/0001-81")).toBe("11222333000181");
  });

  it("reject invalid values with i18n keys", () => {
    expect(firstError(zCpf, "123.456.789-00")).toBe("br.errors.cpfInvalid");
    expect(firstError(zCpf, "")).toBe("br.errors.required");
    expect(firstError(zCpf, undefined)).toBe("br.errors.required");
    expect(firstError(zCnpj, "11.222.333/0001-80")).toBe("br.errors.cnpjInvalid");
    expect(firstError(zDocument, "123")).toBe("br.errors.documentInvalid");
    expect(firstError(zPhone, "(20) 99999-9999")).toBe("br.errors.phoneInvalid");
    expect(firstError(zCep, "123")).toBe("br.errors.cepInvalid");
    expect(firstError(zUf, "XX")).toBe("br.errors.ufInvalid");
    expect(firstError(zEmail, "nope")).toBe("br.errors.emailInvalid");
    expect(firstError(zIPv4, "01.2.3.4")).toBe("br.errors.ipv4Invalid");
  });

  it("parse contact data", () => {
    expect(zPhone.parse("(11) 99999-9999")).toBe("+5511999999999");
    expect(zCep.parse("01310-100")).toBe("01310100");
    expect(zUf.parse(" sp ")).toBe("SP");
    expect(zEmail.parse(" Fulano@Example.com ")).toBe("fulano@example.com");
    expect(zIPv4.parse("10.0.0.1")).toBe("10.0.0.1");
  });

  it("parse money from numbers and pt-BR strings", () => {
    expect(zMoney.parse(10)).toBe(10);
    expect(zMoney.parse(0.1 + 0.2)).toBe(0.3);
    expect(zMoney.parse("1.234,56")).toBe(1234.56);
    expect(zMoney.parse("R$ 10,00")).toBe(10);
    expect(firstError(zMoney, 0)).toBe("br.errors.amountPositive");
    expect(firstError(zMoney, "0")).toBe("br.errors.amountPositive");
    expect(firstError(zMoney, "0,00")).toBe("br.errors.amountPositive");
    expect(firstError(zMoney, -1)).toBe("br.errors.amountPositive");
    expect(firstError(zMoney, 10.001)).toBe("br.errors.amountDecimals");
    expect(firstError(zMoney, "abc")).toBe("br.errors.amountInvalid");
    expect(firstError(zMoney, "")).toBe("br.errors.required");
    expect(firstError(zMoney, Number.NaN)).toBe("br.errors.amountInvalid");
    expect(firstError(zMoney, 1e9)).toBe("br.errors.amountTooLarge");
    expect(zMoney.optional().parse(undefined)).toBeUndefined();
  });

  it("validate cards", () => {
    expect(zCardNumber.parse("4111 1111 1111 1111")).toBe("4111111111111111");
    expect(firstError(zCardNumber, "4111 1111 1111 1112")).toBe("br.errors.cardNumberInvalid");
    expect(firstError(zCardNumber, "6011111111111117")).toBe("br.errors.cardBrandUnsupported");
    expect(firstError(zCardNumber, "4111111111111111111")).toBe("br.errors.cardNumberInvalid");
    expect(zCardExpiry.parse("12/99")).toBe("2099-12");
    expect(zCardExpiry.parse("2099-01")).toBe("2099-01");
    expect(firstError(zCardExpiry, "2020-01")).toBe("br.errors.cardExpired");
    expect(firstError(zCardExpiry, "13/30")).toBe("br.errors.cardExpiryInvalid");
    expect(zCvv("amex").parse("1234")).toBe("1234");
    expect(firstError(zCvv("visa"), "1234")).toBe("br.errors.cvvInvalid");
    expect(zCvv().parse("123")).toBe("123");
  });

  it("validate Pix keys", () => {
    expect(zPixKey("phone").parse("11 94321-4321")).toBe("+5511943214321");
    expect(firstError(zPixKey("cpf"), "111.111.111-11")).toBe("br.errors.cpfInvalid");
    expect(zPixKeyEntry.parse({ type: "email", key: "A@B.com" })).toEqual({ type: "email", key: "a@b.com" });
    const bad = zPixKeyEntry.safeParse({ type: "random", key: "xyz" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["key"], message: "br.errors.pixRandomKeyInvalid" });
    expect(firstError(zPixKeyEntry, { type: "iban", key: "x" })).toBe("br.errors.pixKeyTypeInvalid");
  });

  it("compose inside objects with optional fields", () => {
    const schema = z.object({ document: zDocument, phone: zPhone.optional(), uf: zUf });
    expect(schema.parse({ document: "123.456.789-09", uf: "rj" })).toEqual({ document: "12345678909", uf: "RJ" });
  });

  it("only use error keys that exist in both languages", () => {
    const keys = Object.keys(br["pt-BR"].errors);
    expect(Object.keys(br.en.errors).sort()).toEqual([...keys].sort());
    const used = [
      firstError(zCpf, "x"),
      firstError(zCardExpiry, "2020-01"),
      firstError(zMoney, 10.001),
      firstError(zPixKey("random"), "x"),
    ];
    for (const key of used) {
      expect(hasMessage("pt-BR", key!)).toBe(true);
      expect(hasMessage("en", key!)).toBe(true);
    }
  });
});
