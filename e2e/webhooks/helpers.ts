import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "../fixtures/test";
import { E2E } from "../fixtures/env";
import { createSandboxControl } from "../../sandbox/control-client";

export const DEMO_KEYS = { publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" };
export const DEMO_TOKEN = "wht_sandbox_demo";

export const sandboxControl = () => createSandboxControl({ baseUrl: E2E.sandboxUrl, ...DEMO_KEYS });

/** The env account's id, read from its link on the accounts page; also makes it the page's current account. */
export async function demoAccountId(page: Page): Promise<string> {
  await page.goto("/accounts");
  const href = await page.getByRole("link", { name: "Sandbox — demo" }).first().getAttribute("href");
  const id = href?.split("/").pop();
  expect(id, "account link").toBeTruthy();
  await page.context().addCookies([{ name: "account", value: id!, url: E2E.baseUrl }]);
  return id!;
}

export const webhookUrl = (accountId: string) => `${E2E.baseUrl}/api/webhooks/${accountId}`;

/** Calls the sandbox's gateway API as the demo producer's own backend would. */
export async function gatewayPost<T>(request: APIRequestContext, path: string, body: unknown): Promise<T> {
  const response = await request.post(`${E2E.sandboxUrl}/api/v1/gateway${path}`, {
    headers: { "x-public-key": DEMO_KEYS.publicKey, "x-secret-key": DEMO_KEYS.secretKey },
    data: body,
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as T;
}

export const demoClient = { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" };

/** A payment notification as the gateway sends it, for a transaction that exists nowhere else. */
export function paymentNotification(token: string, overrides: { id?: string; event?: string } = {}) {
  const id = overrides.id ?? `tx_e2e_${randomUUID()}`;
  return {
    event: overrides.event ?? "TRANSACTION_PAID",
    token,
    offerCode: null,
    checkoutUrl: "",
    client: { id: "c1", name: "João Lima", email: "joao@example.com", phone: "(21) 97777-6666", cpf: "111.444.777-35", cnpj: null },
    transaction: {
      id,
      identifier: `e2e-${id.slice(-8)}`,
      status: "COMPLETED",
      paymentMethod: "PIX",
      amount: 42.5,
      currency: "BRL",
      createdAt: new Date(Date.now() - 60_000).toISOString(),
      payedAt: new Date().toISOString(),
    },
  };
}

export function feedRow(page: Page, transactionId: string, event?: string) {
  const selector = `[data-testid="feed-row"][data-transaction-id="${transactionId}"]${event ? `[data-event="${event}"]` : ""}`;
  return page.locator(selector);
}
