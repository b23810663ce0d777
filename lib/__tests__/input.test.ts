import { describe, expect, it } from "vitest";
import { hasControlCharacters, inputProblem, searchParamsProblem } from "@/lib/http/input";

describe("console input layer", () => {
  it("refuses NUL and control characters, deep and oversized input, non-finite numbers", () => {
    expect(inputProblem({ email: "a\u0000@b.com" })).toMatch(/control/);
    expect(inputProblem({ note: "line one\nline two\tok" })).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(inputProblem(deep)).toMatch(/deeper/);
    expect(inputProblem({ s: "x".repeat(300_000) })).toMatch(/longer/);
    expect(inputProblem({ n: Infinity })).toMatch(/range/);
    expect(hasControlCharacters("email=a%00b".replace("%00", "\u0000"))).toBe(true);
  });

  it("checks query strings of route handlers", () => {
    expect(searchParamsProblem("http://x/api?q=%00")).toMatch(/control/);
    expect(searchParamsProblem(`http://x/api?q=${"a".repeat(600)}`)).toMatch(/too long/);
    expect(searchParamsProblem("http://x/api?from=2026-01-01")).toBeNull();
  });
});
