import "server-only";
import { asc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { gatewayAccounts } from "@/lib/db/schema";
import { decryptSecret, encryptSecret, last4 } from "@/lib/crypto/secrets";
import { writeAudit } from "@/lib/audit/log";
import type { Actor } from "@/lib/users/queries";

/** What pages and the browser may see of an account: never a secret, at most its last 4 characters. */
export type AccountDto = {
  id: string;
  name: string;
  baseUrl: string;
  publicKey: string;
  secretKeyLast4: string;
  webhookTokenLast4: string | null;
  mode: "test" | "live";
  source: "env" | "ui";
  createdAt: string;
  updatedAt: string;
};

export type AccountCredentials = { accountId: string; baseUrl: string; publicKey: string; secretKey: string };

type Row = typeof gatewayAccounts.$inferSelect;

function toDto(row: Row): AccountDto {
  return {
    id: row.id,
    name: row.name,
    baseUrl: row.baseUrl,
    publicKey: row.publicKey,
    secretKeyLast4: row.secretKeyLast4,
    webhookTokenLast4: row.webhookTokenLast4,
    mode: row.mode,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listAccounts(ids?: string[]): Promise<AccountDto[]> {
  if (ids && ids.length === 0) return [];
  const db = await getDb();
  const query = db.select().from(gatewayAccounts);
  const rows = await (ids ? query.where(inArray(gatewayAccounts.id, ids)) : query).orderBy(asc(gatewayAccounts.name));
  return rows.map(toDto);
}

export async function getAccount(id: string): Promise<AccountDto | null> {
  const db = await getDb();
  const [row] = await db.select().from(gatewayAccounts).where(eq(gatewayAccounts.id, id)).limit(1);
  return row ? toDto(row) : null;
}

export type AccountInput = {
  name: string;
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  webhookToken?: string | null;
  mode: "test" | "live";
};

export async function createAccount(input: AccountInput, actor: Actor | null, source: "env" | "ui" = "ui"): Promise<AccountDto> {
  const db = await getDb();
  const [row] = await db
    .insert(gatewayAccounts)
    .values({
      name: input.name.trim(),
      baseUrl: input.baseUrl.replace(/\/+$/, ""),
      publicKey: input.publicKey.trim(),
      secretKeyEncrypted: encryptSecret(input.secretKey),
      secretKeyLast4: last4(input.secretKey),
      webhookTokenEncrypted: input.webhookToken ? encryptSecret(input.webhookToken) : null,
      webhookTokenLast4: input.webhookToken ? last4(input.webhookToken) : null,
      mode: input.mode,
      source,
    })
    .returning();
  await writeAudit({
    actor,
    accountId: row.id,
    action: "account.create",
    target: row.name,
    details: { baseUrl: row.baseUrl, publicKey: row.publicKey, mode: row.mode, source, secretKeyLast4: row.secretKeyLast4 },
  });
  return toDto(row);
}

/** A refused account change, for one field (an i18n key). */
export class AccountDetailsError extends Error {
  constructor(
    readonly field: "baseUrl" | "secretKey",
    readonly messageKey: string,
  ) {
    super(messageKey);
  }
}

export async function updateAccountDetails(
  id: string,
  input: { name: string; baseUrl: string; publicKey: string; mode: "test" | "live"; secretKey?: string },
  actor: Actor | null,
): Promise<void> {
  const db = await getDb();
  const before = await getAccount(id);
  if (!before) return;
  const next = { name: input.name.trim(), baseUrl: input.baseUrl.replace(/\/+$/, ""), publicKey: input.publicKey.trim(), mode: input.mode };
  if (next.mode === "live" && !/^https:\/\//i.test(next.baseUrl)) throw new AccountDetailsError("baseUrl", "errors.httpsRequired");
  let secretKey = input.secretKey?.trim() || "";
  const destinationChanged = next.baseUrl !== before.baseUrl || next.mode !== before.mode;
  // A new destination never receives the stored key: whoever moves it must know the secret.
  if (destinationChanged && !secretKey) throw new AccountDetailsError("secretKey", "errors.secretRequiredForChange");
  if (secretKey && secretKey === (await getAccountCredentials(id))?.secretKey) secretKey = "";
  await db
    .update(gatewayAccounts)
    .set({
      ...next,
      ...(secretKey ? { secretKeyEncrypted: encryptSecret(secretKey), secretKeyLast4: last4(secretKey) } : {}),
      updatedAt: new Date(),
    })
    .where(eq(gatewayAccounts.id, id));
  if (secretKey) await writeAudit({ actor, accountId: id, action: "account.secret_key.replace", details: { last4: last4(secretKey) } });
  const changed = Object.fromEntries(
    (Object.keys(next) as (keyof typeof next)[])
      .filter((key) => before[key] !== next[key])
      .map((key) => [key, { from: before[key], to: next[key] }]),
  );
  if (Object.keys(changed).length > 0) {
    await writeAudit({ actor, accountId: id, action: "account.update", target: next.name, details: changed });
  }
}

/** Replacing is the only way to change a stored secret; it is never read back to the UI. */
export async function replaceSecretKey(id: string, secretKey: string, actor: Actor | null): Promise<void> {
  const db = await getDb();
  await db
    .update(gatewayAccounts)
    .set({ secretKeyEncrypted: encryptSecret(secretKey), secretKeyLast4: last4(secretKey), updatedAt: new Date() })
    .where(eq(gatewayAccounts.id, id));
  await writeAudit({ actor, accountId: id, action: "account.secret_key.replace", details: { last4: last4(secretKey) } });
}

export async function replaceWebhookToken(id: string, token: string | null, actor: Actor | null): Promise<void> {
  const db = await getDb();
  await db
    .update(gatewayAccounts)
    .set({
      webhookTokenEncrypted: token ? encryptSecret(token) : null,
      webhookTokenLast4: token ? last4(token) : null,
      updatedAt: new Date(),
    })
    .where(eq(gatewayAccounts.id, id));
  await writeAudit({
    actor,
    accountId: id,
    action: token ? "account.webhook_token.replace" : "account.webhook_token.remove",
    details: token ? { last4: last4(token) } : undefined,
  });
}

export async function getAccountCredentials(id: string): Promise<AccountCredentials | null> {
  const db = await getDb();
  const [row] = await db.select().from(gatewayAccounts).where(eq(gatewayAccounts.id, id)).limit(1);
  if (!row) return null;
  return { accountId: row.id, baseUrl: row.baseUrl, publicKey: row.publicKey, secretKey: decryptSecret(row.secretKeyEncrypted) };
}

export async function getWebhookToken(id: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ token: gatewayAccounts.webhookTokenEncrypted })
    .from(gatewayAccounts)
    .where(eq(gatewayAccounts.id, id))
    .limit(1);
  return row?.token ? decryptSecret(row.token) : null;
}

/** Keeps the account described by GATEWAY_* variables in step with them at each start. */
export async function syncEnvAccount(input: AccountInput): Promise<AccountDto> {
  const db = await getDb();
  const [existing] = await db.select().from(gatewayAccounts).where(eq(gatewayAccounts.source, "env")).limit(1);
  if (!existing) return createAccount(input, null, "env");
  await updateAccountDetails(existing.id, input, null);
  if (decryptSecret(existing.secretKeyEncrypted) !== input.secretKey) await replaceSecretKey(existing.id, input.secretKey, null);
  const currentToken = existing.webhookTokenEncrypted ? decryptSecret(existing.webhookTokenEncrypted) : null;
  if ((input.webhookToken ?? null) !== currentToken) await replaceWebhookToken(existing.id, input.webhookToken ?? null, null);
  return (await getAccount(existing.id))!;
}
