import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { luhnValid, maskCardNumber, redact } from "@/lib/log/redact";
import { consoleLogger, redactingLogger } from "../log";
import { GatewayError } from "../errors";
import { CARD_NUMBER, CVV, PUBLIC_KEY, SECRET_KEY } from "./fixtures";

describe("redact", () => {
  it("masks the key headers (public key: last 4 only)", () => {
    const out = redact({ headers: { "x-secret-key": SECRET_KEY, "X-Public-Key": PUBLIC_KEY, accept: "application/json" } });
    expect(out.headers["x-secret-key"]).toBe("[REDACTED]");
    expect(out.headers["X-Public-Key"]).toBe(`****${PUBLIC_KEY.slice(-4)}`);
    expect(out.headers.accept).toBe("application/json");
  });

  it("masks a Headers instance", () => {
    const headers = new Headers({ "x-secret-key": SECRET_KEY, "x-public-key": PUBLIC_KEY });
    const out = redact(headers) as unknown as Record<string, string>;
    expect(out["x-secret-key"]).toBe("[REDACTED]");
    expect(out["x-public-key"]).toBe(`****${PUBLIC_KEY.slice(-4)}`);
  });

  it("masks secret-named keys at any depth", () => {
    const input = {
      secretKey: "a",
      nested: [{ token: "b", webhookToken: "c", password: "d", secret: "e", Authorization: "Bearer f" }],
      keep: "visible",
    };
    const out = redact(input);
    expect(out).toEqual({
      secretKey: "[REDACTED]",
      nested: [
        { token: "[REDACTED]", webhookToken: "[REDACTED]", password: "[REDACTED]", secret: "[REDACTED]", Authorization: "[REDACTED]" },
      ],
      keep: "visible",
    });
    expect(input.secretKey).toBe("a"); // deep clone: the input is untouched
  });

  it("reduces card.number to BIN + last 4 and removes the CVV", () => {
    const out = redact({ card: { number: CARD_NUMBER, cvv: CVV, owner: "MARIA", expiresAt: "2030-12" }, address: { number: "1000" } });
    expect(out.card).toEqual({ number: "411111******1111", owner: "MARIA", expiresAt: "2030-12" });
    expect("cvv" in out.card).toBe(false);
    expect(out.address.number).toBe("1000");
  });

  it("masks Luhn-valid 13–19 digit runs inside strings, leaving other numbers alone", () => {
    expect(redact(`card ${CARD_NUMBER} declined`)).toBe("card 411111******1111 declined");
    expect(redact("card 4111 1111 1111 1111 declined")).toBe("card 411111******1111 declined");
    expect(redact("card 5555-5555-5555-4444")).toBe("card 555555******4444");
    // Not Luhn-valid, too short, or part of a longer run (a boleto barcode): untouched.
    expect(redact("order 4111111111111112")).toBe("order 4111111111111112");
    expect(redact("phone 11999999999")).toBe("phone 11999999999");
    const barcode = "34196790600001000002220000005566385101214000";
    expect(redact(`barcode ${barcode}`)).toBe(`barcode ${barcode}`);
    expect(redact({ n: 4111111111111111 })).toEqual({ n: "411111******1111" });
  });

  it("masks CVVs written in free text and configured secrets", () => {
    const text = `{"card":{"cvv":"${CVV}"}} cvc=1234 key ${SECRET_KEY}`;
    const out = redact(text, { secrets: [SECRET_KEY] });
    expect(out).not.toContain(CVV);
    expect(out).not.toContain("1234");
    expect(out).not.toContain(SECRET_KEY);
  });

  it("handles errors and cycles", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(redact(cyclic)).toEqual({ a: 1, self: "[Circular]" });
    const error = new Error(`failed for ${CARD_NUMBER}`);
    const out = redact({ error }) as { error: { message: string } };
    expect(out.error.message).toBe("failed for 411111******1111");
  });

  it("keeps GatewayError fields", () => {
    const out = redact({ e: new GatewayError({ kind: "timeout", message: "slow", outcomeUnknown: true }) }) as unknown as {
      e: Record<string, unknown>;
    };
    expect(out.e).toMatchObject({ name: "GatewayError", kind: "timeout", outcomeUnknown: true, message: "slow" });
  });
});

describe("redact (properties)", () => {
  const luhnCheckDigit = (body: string) => {
    for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return String(d);
    throw new Error("unreachable");
  };
  const cardNumber = fc
    .integer({ min: 12, max: 18 })
    .chain((len) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: len, maxLength: len }))
    .map((digits) => {
      const body = digits.join("");
      return body + luhnCheckDigit(body);
    });

  it("no Luhn-valid 13–19 digit number survives, wherever it sits in text or objects", () => {
    fc.assert(
      fc.property(cardNumber, fc.string(), fc.string(), (pan, before, after) => {
        const text = `${before.replace(/\d/g, "x")} ${pan} ${after.replace(/\d/g, "x")}`;
        const out = JSON.stringify(redact({ message: text, nested: [{ note: text }], card: { number: pan } }));
        expect(out).not.toContain(pan);
        expect(out).toContain(pan.slice(-4));
      }),
      { numRuns: 300 },
    );
  });
});

describe("card helpers", () => {
  it("luhn and masking", () => {
    expect(luhnValid("4242424242424242")).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(maskCardNumber("378282246310005")).toBe("378282*****0005");
    expect(maskCardNumber("6011000990139")).toBe("*********0139");
  });
});

describe("loggers", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("the console logger is silent under NODE_ENV=test, and writes JSON lines with GATEWAY_LOG=1", () => {
    const spy = vi.spyOn(console, "log").mockImplementation(() => {});
    vi.stubEnv("NODE_ENV", "test");
    vi.stubEnv("GATEWAY_LOG", "");
    consoleLogger.log("info", "gateway call", { path: "/x" });
    expect(spy).not.toHaveBeenCalled();

    vi.stubEnv("GATEWAY_LOG", "1");
    consoleLogger.log("info", "gateway call", { path: "/x" });
    expect(spy).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(spy.mock.calls[0][0]));
    expect(line).toMatchObject({ level: "info", message: "gateway call", path: "/x", scope: "gateway" });
  });

  it("redactingLogger redacts every field before the inner logger sees it", () => {
    const seen: unknown[] = [];
    const logger = redactingLogger({ log: (_l, m, fields) => seen.push({ m, fields }) }, { secrets: [SECRET_KEY] });
    logger.log("warn", `msg ${SECRET_KEY}`, { body: { card: { number: CARD_NUMBER, cvv: CVV } }, note: SECRET_KEY });
    const text = JSON.stringify(seen);
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(CARD_NUMBER);
    expect(text).not.toContain(CVV);
  });
});
