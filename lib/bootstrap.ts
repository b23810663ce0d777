import "server-only";
import { env } from "@/lib/env";
import { databaseCapabilities } from "@/lib/db/capabilities";
import { getDb } from "@/lib/db/client";
import { encryptionKey } from "@/lib/crypto/secrets";
import { authSecret } from "@/lib/auth/secret";
import { templateXlsx } from "@/lib/payout-batches/template";
import { generatePassword, MIN_PASSWORD } from "@/lib/auth/password-rules";
import { countUsers, createUser } from "@/lib/users/queries";
import { syncEnvAccount } from "@/lib/accounts/queries";
import { webhookUrlFor } from "@/lib/gateway/connection";
import { configureSandboxWebhookUrl } from "@/lib/notifications/sandbox";
import { markConsoleReady } from "@/lib/notifications/fast-path";
import { startBackgroundWork } from "@/lib/background/in-process";

const DEFAULT_ADMIN_EMAIL = "admin@console.local";

async function seedFirstAdmin(): Promise<void> {
  if ((await countUsers()) > 0) return;
  const email = process.env.SEED_ADMIN_EMAIL?.trim() || DEFAULT_ADMIN_EMAIL;
  const given = process.env.SEED_ADMIN_PASSWORD;
  if (given && given.length < MIN_PASSWORD) {
    throw new Error(`SEED_ADMIN_PASSWORD must have at least ${MIN_PASSWORD} characters`);
  }
  const password = given || generatePassword();
  await createUser({ email, name: "Admin", password, role: "admin", accountIds: [] }, null);
  const shown = given ? "(the value of SEED_ADMIN_PASSWORD)" : password;
  console.log(
    [
      "",
      "┌─ First admin created ─────────────────────────────",
      `│ e-mail:   ${email}`,
      `│ password: ${shown}`,
      given ? "│" : "│ This password is shown only once: sign in and change it.",
      "└───────────────────────────────────────────────────",
      "",
    ].join("\n"),
  );
}

async function syncAccountFromEnv(): Promise<void> {
  const { GATEWAY_BASE_URL, GATEWAY_PUBLIC_KEY, GATEWAY_SECRET_KEY } = process.env;
  if (!GATEWAY_BASE_URL || !GATEWAY_PUBLIC_KEY || !GATEWAY_SECRET_KEY) return;
  const account = await syncEnvAccount({
    name: process.env.GATEWAY_ACCOUNT_NAME?.trim() || "Gateway",
    baseUrl: GATEWAY_BASE_URL,
    publicKey: GATEWAY_PUBLIC_KEY,
    secretKey: GATEWAY_SECRET_KEY,
    webhookToken: process.env.GATEWAY_WEBHOOK_TOKEN || null,
    mode: process.env.GATEWAY_MODE === "live" ? "live" : "test",
  });
  console.log(`[console] gateway account "${account.name}" (${account.baseUrl}) is configured from the environment`);
  // Against the sandbox, hosted-checkout sales need a default webhook URL: point it here.
  if (await configureSandboxWebhookUrl(account.id).catch(() => false)) {
    console.log(`[console] the sandbox sends this account's checkout sales to ${webhookUrlFor(account.id)}`);
  }
}

/** Runs once per server process before the first request. */
export async function bootstrap(): Promise<void> {
  process.env.NEXTAUTH_URL ??= env.appUrl;
  encryptionKey();
  authSecret();
  await getDb();
  if (process.env.RECONCILER === "worker" && !(await databaseCapabilities()).sharedByProcesses) {
    throw new Error("RECONCILER=worker needs Postgres (DATABASE_URL): an embedded database belongs to one process");
  }
  await seedFirstAdmin();
  await syncAccountFromEnv();
  startBackgroundWork();
  // Built in the background once the console is up: the batch template's first download is then instant.
  setTimeout(() => void templateXlsx().catch(() => {}), 2_000).unref();
  markConsoleReady();
  console.log(`[console] ready at ${env.appUrl}`);
}
