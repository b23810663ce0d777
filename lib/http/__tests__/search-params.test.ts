import { describe, expect, it } from "vitest";
import { param, parseSearchParams, rawSearchParams, routeId, withoutProblems } from "@/lib/http/search-params";
import { ledgerCursorParts, parseLedgerParams } from "@/lib/ledger/filters";

describe("parseSearchParams", () => {
  const specs = { from: param.day(), email: param.text(), account: param.oneOf(["a1", "a2"]), cursor: param.position() };

  it("keeps valid values and names each invalid one, dropping it to the default", () => {
    const { values, problems } = parseSearchParams(
      { from: "0000-01-01", email: "a\u0000b", account: ["a1", "a2"], cursor: "12", other: "\u0000" },
      specs,
    );
    expect(values).toEqual({ from: undefined, email: undefined, account: undefined, cursor: 12 });
    expect(problems).toEqual([
      { param: "from", reason: "day" },
      { param: "email", reason: "control" },
      { param: "account", reason: "repeated" },
    ]);
  });

  it("refuses absurd dates, overlong strings and unknown choices; empty values are absent", () => {
    const parse = (raw: Record<string, string>) => parseSearchParams(raw, specs).problems.map((p) => p.reason);
    expect(parse({ from: "99999-01-01" })).toEqual(["day"]);
    expect(parse({ from: "2026-02-30" })).toEqual(["day"]);
    expect(parse({ from: "1999-12-31" })).toEqual(["day"]);
    expect(parse({ email: "x".repeat(300) })).toEqual(["text"]);
    expect(parse({ email: "x".repeat(600) })).toEqual(["tooLong"]);
    expect(parse({ account: "a3" })).toEqual(["choice"]);
    expect(parse({ cursor: "9".repeat(40) })).toEqual(["page"]);
    expect(parse({ from: "", email: "  " })).toEqual([]);
    expect(parseSearchParams({ from: "2026-01-31", email: " ana " }, specs).values).toMatchObject({ from: "2026-01-31", email: "ana" });
  });

  it("drops the parameters with problems from what links carry on", () => {
    expect(withoutProblems({ a: "1", b: "2" }, [{ param: "b", reason: "text" }])).toEqual({ a: "1" });
  });
});

describe("routeId", () => {
  it("accepts the console's UUIDs and nothing else", () => {
    const id = "0b5c8a38-7d0e-4b8e-9f59-1f6c3a2b9d10";
    expect(routeId(id)).toBe(id);
    expect(routeId(id.toUpperCase())).toBe(id);
    expect(routeId(encodeURIComponent(id))).toBe(id);
    for (const bad of ["", "x", "%00", "%E0%A4%A", `${id}\u0000`, "9".repeat(400), "../etc/passwd"]) expect(routeId(bad)).toBeNull();
  });
});

describe("the transactions list's parameters", () => {
  it("parse leniently with a problem per bad filter, and only valid ones carry on", () => {
    const result = parseLedgerParams({ status: "OK", from: "2026-13-01", min: "10,50", max: "abc", q: "  ana ", method: ["PIX", "CARD"] });
    expect(result.filters).toEqual({ status: "OK", minCents: 1050, q: "ana" });
    expect(result.params).toEqual({ status: "OK", min: "10,50", q: "ana" });
    expect(result.problems.map((p) => `${p.param}:${p.reason}`)).toEqual(["method:repeated", "from:day", "max:amount"]);
  });

  it("accept only cursors the list wrote", () => {
    const good = Buffer.from(JSON.stringify(["2026-01-05 12:34:56.123456+00", "0b5c8a38-7d0e-4b8e-9f59-1f6c3a2b9d10"])).toString(
      "base64url",
    );
    expect(ledgerCursorParts(good)).not.toBeNull();
    expect(parseLedgerParams({ cursor: good }).cursor).toBe(good);
    for (const bad of [["0000-01-01 00:00:00+00", "x"], ["2026-01-05 12:34:56+00", "a\u0000"], ["2026-01-05", "x"], ["x"]]) {
      const cursor = Buffer.from(JSON.stringify(bad)).toString("base64url");
      expect(ledgerCursorParts(cursor)).toBeNull();
      expect(parseLedgerParams({ cursor }).problems).toEqual([{ param: "cursor", reason: "page" }]);
    }
  });
});

describe("rawSearchParams", () => {
  it("reads a route's query as Next.js hands a page its own: a repeated key is an array, and so refused as on the page", () => {
    const raw = rawSearchParams(new URL("http://c.test/x?status=PAID&status=PENDING&q=maria%20souza&empty="));
    expect(raw).toEqual({ status: ["PAID", "PENDING"], q: "maria souza", empty: "" });
    const { filters, params, problems } = parseLedgerParams(raw);
    expect(problems).toEqual([{ param: "status", reason: "repeated" }]);
    expect(filters).toEqual({ q: "maria souza" });
    expect(params).toEqual({ q: "maria souza" });
  });
});
