import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { processState } from "@/lib/runtime/state";

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks allows 24 to 64). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

const signers = processState("webhook-signers", () => new Map<string, Webhook>());

/** One signer per secret (it decodes the key once); bounded, and held in memory only. */
function signer(secret: string): Webhook {
  const bySecret = signers();
  let found = bySecret.get(secret);
  if (!found) {
    if (bySecret.size >= 1_000) bySecret.clear();
    found = new Webhook(secret);
    bySecret.set(secret, found);
  }
  return found;
}

export type SignedHeaders = { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };

/**
 * Standard Webhooks headers, signed with the `standardwebhooks` library itself: `v1,<base64
 * HMAC-SHA256 of id.timestamp.body>`, one per secret, space-separated (during a rotation the
 * receiver may hold either secret).
 */
export function signedHeaders(secrets: readonly string[], id: string, body: string, at: Date = new Date()): SignedHeaders {
  const signature = secrets.map((secret) => signer(secret).sign(id, at, body)).join(" ");
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
}
