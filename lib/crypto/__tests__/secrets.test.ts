import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secrets";

describe("AES-256-GCM secrets", () => {
  const key = randomBytes(32);

  it("round-trips and uses a fresh IV each time", () => {
    const a = encryptSecret("sk_value", key);
    const b = encryptSecret("sk_value", key);
    expect(a).not.toBe(b);
    expect(decryptSecret(a, key)).toBe("sk_value");
  });

  it("refuses a tampered value or another key", () => {
    const stored = encryptSecret("sk_value", key);
    const [v, iv, tag, ct] = stored.split(":");
    const flipped = Buffer.from(ct, "base64");
    flipped[0] ^= 1;
    expect(() => decryptSecret([v, iv, tag, flipped.toString("base64")].join(":"), key)).toThrow();
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow();
  });
});
