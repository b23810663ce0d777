import { randomUUID } from "node:crypto";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expectResult, fillCustomer, openChargeForm, submit } from "../fixtures/charges";
import { DEMO_KEYS, webhookUrl } from "../fixtures/sandbox";
import { E2E } from "../fixtures/env";
import { expect } from "../fixtures/test";

export const shotsDir = process.env.RECOVERY_SHOTS_DIR;

/** The recovery list's row of one charge, by its identifier. */
export const recoveryRow = (page: Page, identifier: string): Locator =>
  page.locator(`[data-testid="recovery-row"][data-identifier="${identifier}"]`);

/** "R$ 1.234,56" (the first amount in a text) in cents; 0 when there is none. */
export function centsIn(text: string | null): number {
  const match = /R\$\s?([\d.]+,\d{2})/.exec(text ?? "");
  return match ? Math.round(Number(match[1].replace(/\./g, "").replace(",", ".")) * 100) : 0;
}

/** Sets the account's Pix delay in the recovery settings dialog, as a producer would. */
export async function setPixDelay(page: Page, count: string, unit: "segundos" | "minutos" | "horas" | "dias") {
  await page.getByTestId("recovery-settings").click();
  const dialog = page.getByRole("dialog", { name: "Configurar recuperação" });
  const pix = dialog.getByTestId("recovery-pixDelay");
  await pix.getByLabel("Prazo").fill(count);
  await pix.getByRole("combobox", { name: "Unidade" }).click();
  await page.getByRole("option", { name: unit, exact: true }).click();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Creates a Pix charge through the console's form, with one product when named. Returns its
 * identifier, the gateway's id, the charge page's address and its order link (the payment page).
 */
export async function createPixCharge(
  page: Page,
  { amount, product, customer }: { amount: string; product?: string; customer?: { name: string; phone: string; email: string } },
) {
  const identifier = await openChargeForm(page, "pix");
  await page.getByLabel("Valor (R$)").fill(amount);
  await fillCustomer(page, customer ?? {});
  if (product) {
    await page.getByRole("button", { name: "Adicionar produto" }).click();
    await page.getByTestId("product-0").getByLabel("Nome").fill(product);
    await page.getByTestId("product-0").getByLabel("Preço unit.").fill(amount);
    await expect(page.getByTestId("total-mismatch")).toHaveCount(0);
  }
  await submit(page);
  await expectResult(page);
  const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();
  const orderUrl = await page.getByTestId("order-link").getAttribute("href");
  return { identifier, transactionId, chargeUrl: page.url(), orderUrl };
}

type Seed = { method: "PIX" | "BOLETO"; amount: number; name: string; phone: string; product?: string; ageMinutes: number };

/**
 * Charges the producer's own backend created at the sandbox some time ago (`x-sandbox-at`), which
 * the console learns of from the gateway's notification and lookup: rows for the screenshots.
 */
export async function seedPastCharges(request: APIRequestContext, accountId: string, seeds: Seed[]): Promise<string[]> {
  const identifiers: string[] = [];
  for (const seed of seeds) {
    const identifier = `rec-${randomUUID().slice(0, 13)}`;
    const response = await request.post(`${E2E.sandboxUrl}/api/v1/gateway/${seed.method === "PIX" ? "pix" : "boleto"}/receive`, {
      headers: {
        "x-public-key": DEMO_KEYS.publicKey,
        "x-secret-key": DEMO_KEYS.secretKey,
        "x-sandbox-at": new Date(Date.now() - seed.ageMinutes * 60_000).toISOString(),
      },
      data: {
        identifier,
        amount: seed.amount,
        callbackUrl: webhookUrl(accountId),
        client: {
          name: seed.name,
          email: `${seed.name.split(" ")[0].toLowerCase()}@example.com`,
          phone: seed.phone,
          document: "111.444.777-35",
        },
        ...(seed.product ? { products: [{ id: "p1", name: seed.product, quantity: 1, price: seed.amount }] } : {}),
      },
    });
    expect(response.status(), await response.text()).toBeLessThan(300);
    identifiers.push(identifier);
  }
  for (const identifier of identifiers) {
    await expect(async () => {
      const html = await (await request.get(`/${accountId}/transactions?q=${encodeURIComponent(identifier)}`)).text();
      expect(html, `${identifier} in the ledger`).toContain('data-testid="transaction-row"');
    }).toPass({ timeout: 30_000, intervals: [250, 500, 1_000] });
  }
  return identifiers;
}
