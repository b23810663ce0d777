import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "../fixtures/test";
import { E2E } from "../fixtures/env";

export { DEMO_KEYS, DEMO_TOKEN, demoAccountId, demoClient, gatewayPost, sandboxControl, webhookUrl } from "../fixtures/sandbox";
import { DEMO_TOKEN, webhookUrl } from "../fixtures/sandbox";
export const shotsDir = process.env.E2E_SHOTS_DIR;

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
