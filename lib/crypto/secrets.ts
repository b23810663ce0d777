import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

const VERSION = "v1";

function parseKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error("APP_ENCRYPTION_KEY must be 32 bytes (64 hex characters or base64)");
  return key;
}

let cachedKey: Buffer | undefined;

/**
 * Production must bring its own key: a generated one lives only on this disk and would make
 * every stored secret unreadable on another host.
 */
export function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  const fromEnv = process.env.APP_ENCRYPTION_KEY;
  if (fromEnv) return (cachedKey = parseKey(fromEnv));
  if (env.isProduction) throw new Error("APP_ENCRYPTION_KEY is required in production");
  const file = path.join(env.dataDir, "encryption.key");
  if (!existsSync(file)) {
    mkdirSync(env.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
    console.warn(`[console] APP_ENCRYPTION_KEY is not set: generated a development key in ${file}. Set it in production.`);
  }
  return (cachedKey = parseKey(readFileSync(file, "utf8")));
}

export function encryptSecret(plain: string, key: Buffer = encryptionKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), ciphertext.toString("base64")].join(":");
}

export function decryptSecret(stored: string, key: Buffer = encryptionKey()): string {
  const [version, iv, tag, ciphertext] = stored.split(":");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Unrecognised encrypted value");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8");
}

export function last4(secret: string): string {
  return secret.slice(-4);
}
