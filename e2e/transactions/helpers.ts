import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import type { SandboxPaymentEvent, SandboxTransitionType } from "../../sandbox/control-client";
import { expect } from "../fixtures/test";
import { E2E } from "../fixtures/env";

export { DEMO_KEYS, DEMO_TOKEN, demoAccountId, demoClient, gatewayPost, sandboxControl, webhookUrl } from "../fixtures/sandbox";
import { gatewayPost, sandboxControl, webhookUrl } from "../fixtures/sandbox";
export const shotsDir = process.env.E2E_SHOTS_DIR;

type Seed = { status: string; method: string; amount: number; name: string; email: string; cpf?: string; event?: SandboxPaymentEvent };

/** Where the producer's own backend sends notifications it does not want the console to have yet. */
const NOBODY_LISTENS = "http://127.0.0.1:65535/nobody-listens";
const ADDRESS = {
  country: "BR",
  zipCode: "01310-100",
  state: "SP",
  city: "São Paulo",
  street: "Avenida Paulista",
  neighborhood: "Bela Vista",
  number: "1000",
};
const CARD_APPROVED = "4111111111111111";
const CARD_DECLINED = "4000000000000002";

/**
 * How the sandbox reaches a status by itself: the charge's status at creation, then the moves of
 * its transition table (sandbox/README.md), each sending its webhook to the charge's callbackUrl.
 * Null: no way but the control API's test tool (an unknown status, a card "PENDING"…).
 */
function naturalPath(method: string, status: string): { card?: string; moves: SandboxTransitionType[] } | null {
  if (method === "PIX" || method === "BOLETO") {
    const moves: Record<string, SandboxTransitionType[]> = {
      PENDING: [],
      COMPLETED: ["pay"],
      FAILED: ["fail"],
      CANCELED: ["cancel"],
      REFUNDED: ["pay", "refund"],
      CHARGED_BACK: ["pay", "chargeback"],
    };
    return moves[status] ? { moves: moves[status] } : null;
  }
  if (method === "CREDIT_CARD") {
    const card: Record<string, { card: string; moves: SandboxTransitionType[] }> = {
      COMPLETED: { card: CARD_APPROVED, moves: [] },
      FAILED: { card: CARD_DECLINED, moves: [] },
      REFUNDED: { card: CARD_APPROVED, moves: ["refund"] },
      CHARGED_BACK: { card: CARD_APPROVED, moves: ["chargeback"] },
    };
    return card[status] ?? null;
  }
  throw new Error(`notifyTransactions: no sandbox charge for method ${method} (PIX, BOLETO or CREDIT_CARD)`);
}

/**
 * Puts transactions in the account's ledger the way the console learns of ones it did not create.
 * The producer's own backend creates each charge at the sandbox (`seed.method`) and the gateway
 * brings it to `seed.status`: through its transition table with the console's receiver as
 * callbackUrl when it can, so its own notifications reach the console; otherwise (a status no
 * table knows, as `STATUS_NOVO_*`) its notifications go elsewhere, the control API's test tool sets
 * the status, and only then is the console notified (`seed.event`, TRANSACTION_CREATED by default).
 * Either way the console has no row: the notification waits until the gateway's lookup by id
 * confirms it, and the row is made from the gateway's record.
 *
 * Resolves once every row is in the ledger with its status, read through `request`, which must be
 * signed in by a user who may see `accountId` (`page.request`).
 * Returns the gateway ids.
 */
export async function notifyTransactions(request: APIRequestContext, accountId: string, seeds: Seed[]): Promise<string[]> {
  const control = sandboxControl();
  const created: { id: string; identifier: string; status: string }[] = [];
  for (const seed of seeds) {
    const identifier = `e2e-${randomUUID().slice(0, 13)}`;
    const natural = naturalPath(seed.method, seed.status);
    const client = { name: seed.name, email: seed.email, phone: "21977776666", document: seed.cpf ?? "111.444.777-35" };
    const common = { identifier, amount: seed.amount, callbackUrl: natural ? webhookUrl(accountId) : NOBODY_LISTENS };
    const { transactionId } =
      seed.method === "CREDIT_CARD"
        ? await gatewayPost<{ transactionId: string }>(request, "/card/receive", {
            ...common,
            clientIp: "200.100.50.25",
            client: { ...client, address: ADDRESS },
            // A card the sandbox declines has no payment time: a status set over it pays nothing.
            card: { number: natural?.card ?? CARD_DECLINED, owner: seed.name.toUpperCase(), expiresAt: "2031-12", cvv: "123" },
          })
        : await gatewayPost<{ transactionId: string }>(request, seed.method === "PIX" ? "/pix/receive" : "/boleto/receive", {
            ...common,
            client,
          });
    if (natural) {
      for (const move of natural.moves) await control.event(transactionId, move);
    } else {
      await control.setStatus(transactionId, seed.status);
      await control.notify(transactionId, seed.event ?? "TRANSACTION_CREATED", webhookUrl(accountId));
    }
    created.push({ id: transactionId, identifier, status: seed.status });
  }
  for (const { identifier, status } of created) {
    await expect(async () => {
      const response = await request.get(`/${accountId}/transactions?q=${encodeURIComponent(identifier)}`);
      expect(new URL(response.url()).pathname, "notifyTransactions reads the ledger through a signed-in request").toBe(
        `/${accountId}/transactions`,
      );
      const html = await response.text();
      expect(html, `${identifier} in the ledger`).toContain('data-testid="transaction-row"');
      expect(html, `${identifier} in the ledger as ${status}`).toContain(`data-status="${status}"`);
    }).toPass({ timeout: 30_000, intervals: [250, 500, 1_000] });
  }
  return created.map((c) => c.id);
}

export async function switchAccount(page: Page, name: string) {
  await page.getByTestId("account-switcher").click();
  await page.getByRole("menuitemradio", { name: new RegExp(name) }).click();
  await expect(page.getByTestId("account-switcher")).toContainText(name);
}

/** Adds a gateway account through the accounts UI as an admin; returns its id. */
export async function addAccount(
  page: Page,
  name: string,
  keys: { publicKey: string; secretKey: string; webhookToken?: string },
): Promise<string> {
  await page.goto("/accounts");
  await page.getByRole("button", { name: "Nova conta" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill(name);
  await dialog.getByLabel("URL base").fill(E2E.sandboxUrl);
  await dialog.getByLabel("Chave pública").fill(keys.publicKey);
  await dialog.getByLabel("Chave secreta").fill(keys.secretKey);
  if (keys.webhookToken) await dialog.getByLabel("Token de webhook").fill(keys.webhookToken);
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  return page.url().split("/").pop()!;
}
