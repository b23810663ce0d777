import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "@/lib/security-headers.mjs";

describe("content security policy", () => {
  it("allows scripts only with the request's nonce, never 'unsafe-inline'", () => {
    const csp = contentSecurityPolicy("abc123", true);
    const scripts = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(scripts).toContain("'nonce-abc123'");
    expect(scripts).not.toContain("unsafe-inline");
    expect(scripts).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("is not also set statically (two policies would both apply)", () => {
    expect(securityHeaders(true).map((h) => h.key)).not.toContain("Content-Security-Policy");
  });
});
