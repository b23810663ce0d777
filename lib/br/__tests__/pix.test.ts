import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildBrCode,
  crc16Ccitt,
  guessPixKeyType,
  isValidBrCode,
  normalizePixKey,
  parseBrCode,
  stripAccents,
  validatePixKey,
} from "@/lib/br";

const STATIC =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const DYNAMIC =
  "00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd4415204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8";

describe("CRC-16/CCITT-FALSE", () => {
  it("passes the self-test", () => {
    expect(crc16Ccitt("123456789")).toBe("29B1");
    expect(crc16Ccitt("")).toBe("FFFF");
  });
});

describe("BR Code parsing", () => {
  it("parses the static vector", () => {
    const parsed = parseBrCode(STATIC);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.key).toBe("123e4567-e12b-12d1-a456-426655440000");
    expect(parsed.amount).toBeUndefined();
    expect(parsed.location).toBeUndefined();
    expect(parsed.txid).toBe("***");
    expect(parsed.merchantName).toBe("Fulano de Tal");
    expect(parsed.merchantCity).toBe("BRASILIA");
    expect(parsed.fields["26"]).toEqual({ "00": "br.gov.bcb.pix", "01": "123e4567-e12b-12d1-a456-426655440000" });
    expect(parsed.fields["62"]).toEqual({ "05": "***" });
    expect(parsed.fields["53"]).toBe("986");
    expect(parsed.crc).toBe("1D3D");
  });

  it("parses the dynamic vector", () => {
    const parsed = parseBrCode(DYNAMIC);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.pointOfInitiation).toBe("12");
    expect(parsed.location).toBe("bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441");
    expect(parsed.key).toBeUndefined();
    expect(parsed.amount).toBe(123.45);
    expect(parsed.txid).toBe("RP12345678-2019");
    expect(parsed.fields["54"]).toBe("123.45");
  });

  it("rebuilds both vectors byte for byte", () => {
    expect(
      buildBrCode({
        kind: "static",
        key: "123e4567-e12b-12d1-a456-426655440000",
        merchantName: "Fulano de Tal",
        merchantCity: "BRASILIA",
      }),
    ).toBe(STATIC);
    expect(
      buildBrCode({
        kind: "dynamic",
        location: "https://bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441",
        amount: 123.45,
        merchantName: "Fulano de Tal",
        merchantCity: "BRASILIA",
        txid: "RP12345678-2019",
      }),
    ).toBe(DYNAMIC);
  });

  it("rejects a wrong CRC, in either case", () => {
    expect(parseBrCode(STATIC.slice(0, -4) + "1D3E")).toEqual({ ok: false, error: "crc" });
    expect(parseBrCode(STATIC.slice(0, -4) + "1d3d").ok).toBe(true);
    expect(isValidBrCode(STATIC.replace("Fulano", "Fulana"))).toBe(false);
  });

  it("rejects wrong lengths even with a recomputed CRC", () => {
    const withCrc = (body: string) => body + crc16Ccitt(body);
    const body = STATIC.slice(0, -4);
    // name declared 14 long but 13 given: the TLV walk derails
    expect(parseBrCode(withCrc(body.replace("5913Fulano de Tal", "5914Fulano de Tal"))).ok).toBe(false);
    // nested 26 length too short
    expect(parseBrCode(withCrc(body.replace("2658", "2657"))).ok).toBe(false);
    // truncated payload
    expect(parseBrCode(STATIC.slice(0, 40)).ok).toBe(false);
    expect(parseBrCode("").ok).toBe(false);
    expect(parseBrCode("hello").ok).toBe(false);
  });

  it("rejects non-Pix or non-BRL codes", () => {
    const withCrc = (body: string) => body + crc16Ccitt(body);
    const body = STATIC.slice(0, -4);
    expect(parseBrCode(withCrc(body.replace("br.gov.bcb.pix", "br.gov.bcb.pox")))).toEqual({ ok: false, error: "notPix" });
    expect(parseBrCode(withCrc(body.replace("5303986", "5303840")))).toEqual({ ok: false, error: "currency" });
  });
});

describe("BR Code building", () => {
  it("orders fields, strips accents and truncates", () => {
    const code = buildBrCode({
      kind: "static",
      key: "+5511943214321",
      description: "Pedido número 12",
      amount: 10,
      merchantName: "Padaria São João da Barra e Confeitaria",
      merchantCity: "São José dos Campos",
    });
    const parsed = parseBrCode(code);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.merchantName).toBe("Padaria Sao Joao da Barra");
    expect(parsed.merchantCity).toBe("Sao Jose dos Ca");
    expect(parsed.amount).toBe(10);
    expect(parsed.fields["54"]).toBe("10.00");
    expect(parsed.description).toBe("Pedido numero 12");
    expect(parsed.txid).toBe("***");
    expect(parsed.fields["01"]).toBeUndefined();
    const ids = [];
    for (let i = 0; i < code.length;) {
      ids.push(code.slice(i, i + 2));
      i += 4 + Number(code.slice(i + 2, i + 4));
    }
    expect(ids).toEqual(["00", "26", "52", "53", "54", "58", "59", "60", "62", "63"]);
  });

  it("refuses impossible input", () => {
    const base = { kind: "static" as const, key: "a@b.com", merchantName: "X", merchantCity: "Y" };
    expect(() => buildBrCode({ ...base, amount: 0 })).toThrow(RangeError);
    expect(() => buildBrCode({ ...base, txid: "x".repeat(26) })).toThrow(RangeError);
    expect(() => buildBrCode({ ...base, merchantName: "   " })).toThrow(RangeError);
    expect(() => buildBrCode({ ...base, key: "k".repeat(90) })).toThrow(RangeError);
  });

  it("round-trips build → parse", () => {
    const text = fc.string({ unit: fc.constantFrom(..."abcdeéãçõÁÉÍ ÔÜXYZ0123456789-'".split("")), minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 9_999_999_999 }), { nil: undefined }),
        fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,25}$/), { nil: undefined }),
        text.filter((s) => /[a-zA-Z0-9]/.test(stripAccents(s))),
        text.filter((s) => /[a-zA-Z0-9]/.test(stripAccents(s))),
        fc.uuid(),
        (dynamic, cents, txid, name, city, uuid) => {
          const amount = cents === undefined ? undefined : cents / 100;
          const code = dynamic
            ? buildBrCode({
                kind: "dynamic",
                location: `pix.example.com/qr/v2/${uuid}`,
                amount,
                txid,
                merchantName: name,
                merchantCity: city,
              })
            : buildBrCode({ kind: "static", key: uuid, amount, txid, merchantName: name, merchantCity: city });
          const parsed = parseBrCode(code);
          expect(parsed.ok).toBe(true);
          if (!parsed.ok) return;
          expect(parsed.amount).toBe(amount);
          expect(parsed.txid).toBe(txid ?? "***");
          expect(parsed.merchantName.length).toBeLessThanOrEqual(25);
          expect(parsed.merchantCity.length).toBeLessThanOrEqual(15);
          expect(parsed.merchantName).toMatch(/^[\x20-\x7e]+$/);
          expect(stripAccents(name).replace(/\s+/g, " ").trim().startsWith(parsed.merchantName)).toBe(true);
          if (dynamic) {
            expect(parsed.location).toBe(`pix.example.com/qr/v2/${uuid}`);
            expect(parsed.pointOfInitiation).toBe("12");
          } else {
            expect(parsed.key).toBe(uuid);
          }
          const rebuilt = dynamic
            ? buildBrCode({
                kind: "dynamic",
                location: parsed.location!,
                amount: parsed.amount,
                txid: parsed.txid,
                merchantName: parsed.merchantName,
                merchantCity: parsed.merchantCity,
              })
            : buildBrCode({
                kind: "static",
                key: parsed.key!,
                amount: parsed.amount,
                txid: parsed.txid,
                merchantName: parsed.merchantName,
                merchantCity: parsed.merchantCity,
              });
          expect(rebuilt).toBe(code);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("Pix keys", () => {
  it("validates and normalises each type", () => {
    expect(validatePixKey("cpf", "123.456.789-09")).toEqual({ ok: true, key: "12345678909" });
    expect(validatePixKey("cpf", "123.456.789-00")).toEqual({ ok: false, error: "br.errors.cpfInvalid" });
    expect(validatePixKey("cnpj", "11.222.333/0001-81")).toEqual({ ok: true, key: "11222333000181" });
    expect(validatePixKey("cnpj", "12.abc.345/01de-35")).toEqual({ ok: true, key: "12ABC34501DE35" });
    expect(validatePixKey("cnpj", "11.222.333/0001-82")).toEqual({ ok: false, error: "br.errors.cnpjInvalid" });
    expect(validatePixKey("phone", "(11) 94321-4321")).toEqual({ ok: true, key: "+5511943214321" });
    expect(validatePixKey("phone", "(20) 94321-4321")).toEqual({ ok: false, error: "br.errors.phoneInvalid" });
    expect(validatePixKey("email", " Fulano@Example.COM ")).toEqual({ ok: true, key: "fulano@example.com" });
    expect(validatePixKey("email", "not-an-email")).toEqual({ ok: false, error: "br.errors.emailInvalid" });
    expect(validatePixKey("email", `${"a".repeat(65)}@example.com`)).toEqual({ ok: true, key: `${"a".repeat(65)}@example.com` });
    expect(validatePixKey("email", `${"a".repeat(66)}@example.com`)).toEqual({ ok: false, error: "br.errors.emailTooLong" });
    expect(validatePixKey("random", "123E4567-E12B-12D1-A456-426655440000")).toEqual({
      ok: true,
      key: "123e4567-e12b-12d1-a456-426655440000",
    });
    expect(validatePixKey("random", "123e4567e12b12d1a456426655440000")).toEqual({ ok: false, error: "br.errors.pixRandomKeyInvalid" });
    expect(validatePixKey("random", "   ")).toEqual({ ok: false, error: "br.errors.pixKeyRequired" });
    expect(validatePixKey("evp-legacy", "  abc ")).toEqual({ ok: true, key: "abc" });
    expect(validatePixKey("evp-legacy", "  ")).toEqual({ ok: false, error: "br.errors.pixKeyRequired" });
  });

  it("normalises without validating", () => {
    expect(normalizePixKey("cpf", " 123.456.789-09 ")).toBe("12345678909");
    expect(normalizePixKey("phone", "11 94321-4321")).toBe("+5511943214321");
    expect(normalizePixKey("email", "A@B.C")).toBe("a@b.c");
  });

  it("guesses a key type from its shape", () => {
    expect(guessPixKeyType("123e4567-e12b-12d1-a456-426655440000")).toBe("random");
    expect(guessPixKeyType("a@b.com")).toBe("email");
    expect(guessPixKeyType("+5511943214321")).toBe("phone");
    expect(guessPixKeyType("123.456.789-09")).toBe("cpf");
    expect(guessPixKeyType("11222333000181")).toBe("cnpj");
    expect(guessPixKeyType("???")).toBeNull();
  });
});
