import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

let cached: string | undefined;

/** NEXTAUTH_SECRET signs session tokens; a generated one is only acceptable outside production. */
export function authSecret(): string {
  if (cached) return cached;
  const fromEnv = process.env.NEXTAUTH_SECRET ?? process.env.AUTH_SECRET;
  if (fromEnv) return (cached = fromEnv);
  if (env.isProduction) throw new Error("NEXTAUTH_SECRET is required in production");
  const file = path.join(env.dataDir, "auth.secret");
  if (!existsSync(file)) {
    mkdirSync(env.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
    console.warn(`[console] NEXTAUTH_SECRET is not set: generated a development secret in ${file}.`);
  }
  return (cached = readFileSync(file, "utf8").trim());
}
