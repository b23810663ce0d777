import { describe, expect, it } from "vitest";
import { formatBrPhone, formatCep, isIPv4, isUf, isValidBrPhone, isValidCep, parseBrPhone, toE164Phone, UFS } from "@/lib/br";

describe("phone", () => {
  it.each([
    ["+55 11 99999-9999", { ddd: "11", number: "999999999", mobile: true }],
    ["(11) 99999-9999", { ddd: "11", number: "999999999", mobile: true }],
    ["5511943214321", { ddd: "11", number: "943214321", mobile: true }],
    ["+5511943214321", { ddd: "11", number: "943214321", mobile: true }],
    ["(11) 3333-4444", { ddd: "11", number: "33334444", mobile: false }],
    ["011 3333 4444", { ddd: "11", number: "33334444", mobile: false }],
    ["55 99876-5432", { ddd: "55", number: "998765432", mobile: true }],
    ["(99) 2345.6789", { ddd: "99", number: "23456789", mobile: false }],
  ])("parses %s", (input, expected) => {
    expect(parseBrPhone(input)).toEqual(expected);
  });

  it.each([
    "(20) 99999-9999", // no such area code
    "(23) 3333-4444",
    "(10) 99999-9999",
    "(11) 89999-9999", // 9 digits must start with 9
    "(11) 999-9999",
    "+1 11 99999-9999",
    "+55 11 99999-99999",
    "11 99999-9999 ramal 2",
    "",
  ])("rejects %s", (input) => {
    expect(parseBrPhone(input)).toBeNull();
    expect(isValidBrPhone(input)).toBe(false);
    expect(toE164Phone(input)).toBeNull();
  });

  it("formats and converts to E.164", () => {
    expect(formatBrPhone("+5511999999999")).toBe("(11) 99999-9999");
    expect(formatBrPhone("1133334444")).toBe("(11) 3333-4444");
    expect(toE164Phone("(11) 99999-9999")).toBe("+5511999999999");
    expect(toE164Phone("(21) 2222-3333")).toBe("+552122223333");
  });
});

describe("CEP and UF", () => {
  it("validates and formats CEP", () => {
    expect(isValidCep("01310-100")).toBe(true);
    expect(isValidCep("01310100")).toBe(true);
    expect(isValidCep("0131-0100")).toBe(false);
    expect(isValidCep("1310100")).toBe(false);
    expect(isValidCep("01310-1000")).toBe(false);
    expect(formatCep("01310100")).toBe("01310-100");
  });

  it("knows the 27 states", () => {
    expect(UFS).toHaveLength(27);
    expect(new Set(UFS).size).toBe(27);
    expect(isUf("SP")).toBe(true);
    expect(isUf("DF")).toBe(true);
    expect(isUf("sp")).toBe(false);
    expect(isUf("XX")).toBe(false);
    expect(isUf("BR")).toBe(false);
    expect(isUf(undefined)).toBe(false);
  });
});

describe("IPv4", () => {
  it.each(["0.0.0.0", "127.0.0.1", "255.255.255.255", "192.168.10.1", "10.0.0.254"])("accepts %s", (ip) => {
    expect(isIPv4(ip)).toBe(true);
  });
  it.each(["01.2.3.4", "1.2.3.04", "256.1.1.1", "1.2.3", "1.2.3.4.5", " 1.2.3.4", "1.2.3.4\n", "a.b.c.d", "1..2.3", "", "::1"])(
    "rejects %j",
    (ip) => {
      expect(isIPv4(ip)).toBe(false);
    },
  );
});
