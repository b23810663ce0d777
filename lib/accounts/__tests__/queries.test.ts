import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");

const SECRET = "sk_live_4f8c2e9a7b1d3c5e6f7a8b9c0d1e2f3a";
const TOKEN = "wht_9a8b7c6d5e4f3a2b1c0d";

const targets = await testDatabases();

async function rows(query: SQL): Promise<{ rows: Record<string, unknown>[] }> {
  const db = await getDb();
  return (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
}

describe.each(targets)("accounts queries on $name", (target: TestDatabase) => {
  bindDatabase(target);

  it("stores the secret key and webhook token encrypted, never in clear", async () => {
    const { createAccount } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      { name: "Loja", baseUrl: "https://gateway.example/", publicKey: "pk_1", secretKey: SECRET, webhookToken: TOKEN, mode: "live" },
      null,
    );
    const raw = await rows(sql`select * from gateway_accounts where id = ${account.id}`);
    const dump = JSON.stringify(raw.rows);
    expect(dump).not.toContain(SECRET);
    expect(dump).not.toContain(TOKEN);
    expect(dump).toContain("v1:");
    expect(account.baseUrl).toBe("https://gateway.example");
  });

  it("decrypts only through the server-side credential reader", async () => {
    const { createAccount, getAccountCredentials, getWebhookToken } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      { name: "Outra", baseUrl: "https://gw.example", publicKey: "pk_2", secretKey: SECRET, webhookToken: TOKEN, mode: "test" },
      null,
    );
    expect(await getAccountCredentials(account.id)).toEqual({
      accountId: account.id,
      baseUrl: "https://gw.example",
      publicKey: "pk_2",
      secretKey: SECRET,
    });
    expect(await getWebhookToken(account.id)).toBe(TOKEN);
  });

  it("never puts a secret in the DTOs pages receive, only the last 4 characters", async () => {
    const { createAccount, getAccount, listAccounts, replaceSecretKey } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      { name: "DTO", baseUrl: "https://gw.example", publicKey: "pk_3", secretKey: SECRET, webhookToken: TOKEN, mode: "test" },
      null,
    );
    const dto = await getAccount(account.id);
    const list = await listAccounts();
    for (const value of [dto, list]) {
      const json = JSON.stringify(value);
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain(TOKEN);
      expect(json).not.toContain("v1:");
    }
    expect(dto?.secretKeyLast4).toBe(SECRET.slice(-4));
    expect(dto?.webhookTokenLast4).toBe(TOKEN.slice(-4));
    expect(Object.keys(dto!).sort()).toEqual(
      ["baseUrl", "createdAt", "id", "mode", "name", "publicKey", "secretKeyLast4", "source", "updatedAt", "webhookTokenLast4"].sort(),
    );

    await replaceSecretKey(account.id, "sk_replaced_value_9999", null);
    expect((await getAccount(account.id))?.secretKeyLast4).toBe("9999");
  });

  it("writes every change to the audit log without the secret", async () => {
    const { createAccount, replaceWebhookToken, updateAccountDetails } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      { name: "Audit", baseUrl: "https://gw.example", publicKey: "pk_4", secretKey: SECRET, mode: "test" },
      { id: "u1", email: "ops@example.com" },
    );
    await updateAccountDetails(
      account.id,
      { name: "Audit 2", baseUrl: "https://gw.example", publicKey: "pk_4", mode: "live", secretKey: SECRET },
      null,
    );
    await replaceWebhookToken(account.id, TOKEN, null);
    const raw = await rows(sql`select action, details from audit_log where account_id = ${account.id} order by id`);
    expect(raw.rows.map((row) => (row as { action: string }).action)).toEqual([
      "account.create",
      "account.update",
      "account.webhook_token.replace",
    ]);
    expect(JSON.stringify(raw.rows)).not.toContain(SECRET);
    expect(JSON.stringify(raw.rows)).not.toContain(TOKEN);
  });

  it("keeps the environment-defined account in step with GATEWAY_* values", async () => {
    const { syncEnvAccount, getAccountCredentials } = await import("@/lib/accounts/queries");
    const first = await syncEnvAccount({
      name: "Env",
      baseUrl: "https://a.example",
      publicKey: "pk_env",
      secretKey: "sk_one_1111",
      mode: "test",
    });
    const second = await syncEnvAccount({
      name: "Env",
      baseUrl: "https://b.example",
      publicKey: "pk_env",
      secretKey: "sk_two_2222",
      mode: "test",
    });
    expect(second.id).toBe(first.id);
    expect(second.baseUrl).toBe("https://b.example");
    expect((await getAccountCredentials(first.id))?.secretKey).toBe("sk_two_2222");
  });
});

describe("secret modules are server-only", () => {
  it.each(["lib/accounts/queries.ts", "lib/crypto/secrets.ts", "lib/auth/session.ts", "lib/db/client.ts"])(
    "%s imports server-only first",
    (file) => {
      const firstImport = readFileSync(file, "utf8")
        .split("\n")
        .find((line) => line.startsWith("import"));
      expect(firstImport).toBe('import "server-only";');
    },
  );
  it("asks for the secret again before the base URL or the mode changes; live needs https", async () => {
    // Its own embedded database: the per-target suites above have dropped theirs.
    await closeDb();
    useDatabase({ name: "pglite", pgliteDir: "memory://", drop: async () => {} });
    const { createAccount, getAccountCredentials, updateAccountDetails, AccountDetailsError } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      { name: "Move", baseUrl: "https://gw.example", publicKey: "pk_m", secretKey: SECRET, webhookToken: null, mode: "test" },
      null,
    );
    const details = { name: "Move", baseUrl: "https://gw.example", publicKey: "pk_m", mode: "test" as const };
    await expect(updateAccountDetails(account.id, { ...details, baseUrl: "https://attacker.example" }, null)).rejects.toBeInstanceOf(
      AccountDetailsError,
    );
    await expect(updateAccountDetails(account.id, { ...details, mode: "live" }, null)).rejects.toBeInstanceOf(AccountDetailsError);
    await expect(
      updateAccountDetails(account.id, { ...details, baseUrl: "http://gw.example", mode: "live", secretKey: "sk_new" }, null),
    ).rejects.toMatchObject({
      field: "baseUrl",
    });
    expect((await getAccountCredentials(account.id))?.baseUrl).toBe("https://gw.example");
    await updateAccountDetails(account.id, { ...details, name: "Renamed" }, null);
    await updateAccountDetails(
      account.id,
      { ...details, baseUrl: "https://gw2.example", mode: "live", secretKey: "sk_live_new_1234" },
      null,
    );
    const after = await getAccountCredentials(account.id);
    expect(after).toMatchObject({ baseUrl: "https://gw2.example", secretKey: "sk_live_new_1234" });
  });
});
