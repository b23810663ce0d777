import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "../fixtures/test";
import { E2E } from "../fixtures/env";
import { createSandboxControl } from "../../sandbox/control-client";

export const DEMO_KEYS = { publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" };
const DEMO_TOKEN = "wht_sandbox_demo";

export const sandboxControl = () => createSandboxControl({ baseUrl: E2E.sandboxUrl, ...DEMO_KEYS });
export const webhookUrl = (accountId: string) => `${E2E.baseUrl}/api/webhooks/${accountId}`;
export const shotsDir = process.env.E2E_SHOTS_DIR;

/** The env account's id (from its link on the accounts page), made the page's current account. */
export async function demoAccountId(page: Page): Promise<string> {
  await page.goto("/accounts");
  const href = await page.getByRole("link", { name: "Sandbox — demo" }).first().getAttribute("href");
  const id = href?.split("/").pop();
  expect(id, "account link").toBeTruthy();
  await page.context().addCookies([{ name: "account", value: id!, url: E2E.baseUrl }]);
  return id!;
}

/** Calls the sandbox's gateway API as the producer's own backend would. */
export async function gatewayPost<T>(request: APIRequestContext, path: string, body: unknown): Promise<T> {
  const response = await request.post(`${E2E.sandboxUrl}/api/v1/gateway${path}`, {
    headers: { "x-public-key": DEMO_KEYS.publicKey, "x-secret-key": DEMO_KEYS.secretKey },
    data: body,
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as T;
}

export const demoClient = { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" };

type Seed = { status: string; method: string; amount: number; name: string; email: string; cpf?: string; event?: string };

/**
 * Records ledger rows the way a gateway would make the console learn about them: a payment
 * notification (with the account's token) for a transaction the console did not create.
 */
export async function notifyTransactions(request: APIRequestContext, accountId: string, seeds: Seed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const seed of seeds) {
    const id = `tx_e2e_${randomUUID()}`;
    const response = await request.post(webhookUrl(accountId), {
      data: {
        event: seed.event ?? "TRANSACTION_CREATED",
        token: DEMO_TOKEN,
        offerCode: null,
        checkoutUrl: "",
        client: { id: "c1", name: seed.name, email: seed.email, phone: "(21) 97777-6666", cpf: seed.cpf ?? "111.444.777-35", cnpj: null },
        transaction: {
          id,
          identifier: `e2e-${id.slice(-12)}`,
          status: seed.status,
          paymentMethod: seed.method,
          amount: seed.amount,
          currency: "BRL",
          createdAt: new Date(Date.now() - 60_000).toISOString(),
        },
      },
    });
    expect(response.status(), await response.text()).toBeLessThan(300);
    ids.push(id);
  }
  return ids;
}

export async function switchAccount(page: Page, name: string) {
  await page.getByTestId("account-switcher").click();
  await page.getByRole("menuitemradio", { name: new RegExp(name) }).click();
  await expect(page.getByTestId("account-switcher")).toContainText(name);
}

/** Adds a gateway account through the accounts UI as an admin; returns its id. */
export async function addAccount(page: Page, name: string, keys: { publicKey: string; secretKey: string }): Promise<string> {
  await page.goto("/accounts");
  await page.getByRole("button", { name: "Nova conta" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill(name);
  await dialog.getByLabel("URL base").fill(E2E.sandboxUrl);
  await dialog.getByLabel("Chave pública").fill(keys.publicKey);
  await dialog.getByLabel("Chave secreta").fill(keys.secretKey);
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  return page.url().split("/").pop()!;
}
