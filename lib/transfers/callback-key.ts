import "server-only";
import { createHash, randomBytes } from "node:crypto";

/** An unguessable path segment for one object's callbackUrl; only its hash is stored. */
export function newCallbackKey(): string {
  return randomBytes(24).toString("base64url");
}

export function callbackKeyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
