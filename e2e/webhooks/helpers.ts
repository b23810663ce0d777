import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";

export { DEMO_KEYS, DEMO_TOKEN, demoAccountId, demoClient, gatewayPost, sandboxControl, webhookUrl } from "../fixtures/sandbox";

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
