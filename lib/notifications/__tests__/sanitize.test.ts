import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { clip, parsePaymentNotification, redactPayload } from "@/lib/gateway/notifications";
import { parseGatewayTime as parseTime } from "@/lib/gateway/time";
import {
  DEPTH_MARKER,
  MAX_PAYLOAD_DEPTH,
  mayNeedSanitizing,
  redactRawBody,
  sanitizedFlag,
  sanitizeJson,
} from "@/lib/notifications/sanitize";

/** What Postgres's jsonb refuses in a string: NUL and a UTF-16 half without its pair. */
const storable = (text: string) => text.isWellFormed() && !text.includes("\u0000");

function maxDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    max = Math.max(max, depth);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

function everyString(value: unknown, test: (text: string) => boolean): boolean {
  const stack = [value];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === "string" && !test(node)) return false;
    if (typeof node === "object" && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        if (!test(key)) return false;
        stack.push(child);
      }
    }
  }
  return true;
}

const escapes = fc.constantFrom(
  "\\u0000",
  "\\ud800",
  "\\uDBFF",
  "\\udc00",
  "\\uDFFF",
  "\\ud83d\\ude00",
  "\\u00e9",
  "\\\\u0000",
  '\\"',
  "\\n",
  "\u{1f600}",
  "é",
);
/** JSON text as some encoder might write it, escapes included, nested a little or a lot. */
const jsonText = fc.letrec((tie) => ({
  string: fc
    .array(
      fc.oneof(
        escapes,
        fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s).slice(1, -1)),
      ),
      { maxLength: 5 },
    )
    .map((parts) => `"${parts.join("")}"`),
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("1", "-0", "1e400", "123456789012345678901234567890", "true", "null"),
    tie("string") as fc.Arbitrary<string>,
    fc.array(tie("value") as fc.Arbitrary<string>, { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(tie("string") as fc.Arbitrary<string>, tie("value") as fc.Arbitrary<string>), { maxLength: 3 })
      .map((members) => `{${members.map(([k, v]) => `${k}:${v}`).join(",")}}`),
    fc.integer({ min: 60, max: 200 }).map((n) => "[".repeat(n) + "]".repeat(n)),
  ),
})).value;

describe("sanitising authentic deliveries", () => {
  it("never misses what jsonb would refuse or what nests too deep: the quick scan is true whenever sanitising changes anything", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const { value, reasons } = sanitizeJson(JSON.parse(text));
        if (reasons.size > 0) expect(mayNeedSanitizing(text)).toBe(true);
        expect(everyString(value, storable)).toBe(true);
        expect(maxDepth(value)).toBeLessThanOrEqual(MAX_PAYLOAD_DEPTH);
        // The sanitised copy is JSON that stringifies without a stack overflow.
        expect(() => JSON.stringify(value)).not.toThrow();
        if (reasons.size === 0) expect(value).toEqual(JSON.parse(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("is false for an ordinary payment notification and for emoji, raw or escaped in pairs", () => {
    const body = JSON.stringify({
      event: "TRANSACTION_PAID",
      token: "t",
      client: { name: "Zé 😀 \u00e9" },
      transaction: { id: "tx", items: [[{ a: [1] }]] },
    });
    expect(mayNeedSanitizing(body)).toBe(false);
    expect(mayNeedSanitizing('{"name":"\\ud83d\\ude00"}')).toBe(true);
    expect(sanitizeJson(JSON.parse('{"name":"\\ud83d\\ude00"}')).reasons.size).toBe(0);
    // An escaped backslash before "u0000" is text, not an escape: a false alarm, nothing changes.
    expect(sanitizeJson(JSON.parse('{"a":"\\\\u0000"}')).reasons.size).toBe(0);
    expect(mayNeedSanitizing(`{"a":${"[".repeat(64)}${"]".repeat(64)}}`)).toBe(true);
    expect(mayNeedSanitizing(`${"[".repeat(64)}${"]".repeat(64)}`)).toBe(false);
    // Brackets inside strings do not count, nor hide depth.
    expect(mayNeedSanitizing(`{"a":"${"]".repeat(100)}","b":${"[".repeat(60)}${"]".repeat(60)}}`)).toBe(false);
    expect(mayNeedSanitizing(`{"a":"${"[".repeat(100)}"}`)).toBe(false);
  });

  it("finds raw NUL and lone halves in a string a caller passes directly", () => {
    expect(mayNeedSanitizing('{"a":"x\u0000"}')).toBe(true);
    expect(mayNeedSanitizing('{"a":"x\ud800"}')).toBe(true);
    expect(mayNeedSanitizing('{"a":"x\udc00y"}')).toBe(true);
    expect(mayNeedSanitizing('{"a":"x\ud83d\ude00"}')).toBe(false);
  });

  it("replaces NUL and lone halves with U+FFFD in keys and values, and subtrees past the limit with a marker", () => {
    const { value, reasons } = sanitizeJson(JSON.parse('{"a\\u0000":["x\\ud800y",{"b":"\\udfff"}],"ok":"\\ud83d\\ude00"}'));
    expect(value).toEqual({ "a\ufffd": ["x\ufffdy", { b: "\ufffd" }], ok: "\u{1f600}" });
    expect(sanitizedFlag(reasons)).toBe("characters");
    const deep = sanitizeJson(JSON.parse("[".repeat(100_000) + "]".repeat(100_000)));
    expect(sanitizedFlag(deep.reasons)).toBe("depth");
    expect(maxDepth(deep.value)).toBe(MAX_PAYLOAD_DEPTH);
    expect(JSON.stringify(deep.value)).toBe("[".repeat(MAX_PAYLOAD_DEPTH) + JSON.stringify(DEPTH_MARKER) + "]".repeat(MAX_PAYLOAD_DEPTH));
    expect(sanitizedFlag(sanitizeJson(JSON.parse(`{"a":"\\u0000","b":${"[".repeat(70)}${"]".repeat(70)}}`)).reasons)).toBe(
      "characters,depth",
    );
  });

  it("keeps a __proto__ member as a member, never as the prototype", () => {
    const { value } = sanitizeJson(JSON.parse('{"__proto__":{"polluted":"\\u0000"}}'));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("redacts tokens in the raw body exactly where redactPayload does, and leaves every other byte", () => {
    const secret = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
      fc.array(fc.string(), { maxLength: 2 }),
    );
    const keyed = fc.oneof(fc.constantFrom("token", "webhookToken", "tokens", "Token"), fc.string({ maxLength: 6 }));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.array(fc.tuple(keyed, fc.oneof(secret, tie("node"))), { maxLength: 4 }).map((members) => Object.fromEntries(members)),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(JSON.parse(redactRawBody(text))).toEqual(redactPayload(JSON.parse(text)));
      }),
      { numRuns: 1_000 },
    );
    // Escaped key names are still the keys they spell; the rest stays byte for byte.
    expect(redactRawBody('{"t\\u006fken" : "s3cret", "x":"token", "n":[1,{"webhookToken":{"a":"}"}}]}')).toBe(
      '{"t\\u006fken" : "[redacted]", "x":"token", "n":[1,{"webhookToken":"[redacted]"}]}',
    );
    expect(redactRawBody('{"a":"\\u0000"}')).toBe('{"a":"\\u0000"}');
  });
});

describe("what the store's columns accept", () => {
  it("clips without splitting a surrogate pair", () => {
    const text = `${"a".repeat(199)}\u{1f600}tail`;
    expect(clip(text)).toBe("a".repeat(199));
    expect(clip(`${"a".repeat(198)}\u{1f600}`)).toBe(`${"a".repeat(198)}\u{1f600}`);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 260 }), (s) => {
        expect(clip(s) === null || clip(s)!.isWellFormed()).toBe(true);
      }),
    );
  });

  it("reads times only within years 1 to 9999", () => {
    expect(parseTime("2026-11-20T12:05:00.000Z")?.toISOString()).toBe("2026-11-20T12:05:00.000Z");
    expect(parseTime("+275760-09-13T00:00:00.000Z")).toBeNull();
    expect(parseTime("-271821-04-20T00:00:00.000Z")).toBeNull();
    expect(parseTime("0000-12-31T00:00:00.000Z")).toBeNull();
  });

  it("keeps no amount that does not fit an exact integer of centavos", () => {
    const notification = (amount: number, commissionAmount: number) =>
      parsePaymentNotification({
        event: "TRANSACTION_PAID",
        token: "t",
        checkoutUrl: "",
        client: {},
        transaction: {
          id: "tx",
          status: "COMPLETED",
          paymentMethod: "PIX",
          amount,
          commissionAmount,
          currency: "BRL",
          createdAt: "2026-01-01T00:00:00Z",
        },
      });
    expect(notification(1e300, 1)).toMatchObject({ amountCents: null, feeCents: null });
    expect(notification(10, 1e300)).toMatchObject({ amountCents: 1000, feeCents: null });
    expect(notification(10, 9.5)).toMatchObject({ amountCents: 1000, feeCents: 50 });
  });
});
