import { expect, test } from "../fixtures/test";
import { expectResult, fillCard, fillCustomer, openChargeForm, submit } from "../fixtures/charges";
import { shoot } from "./shots";

async function fillSubscription(page: import("@playwright/test").Page) {
  await page.getByLabel("Valor (R$)").fill("29,90");
  await fillCustomer(page);
  await page.getByLabel("ID do produto").fill("plano-pro");
  await page.getByLabel("Nome do produto").fill("Plano Pro");
  await page.getByLabel("Preço (R$)").fill("29,90");
}

test.describe("subscriptions", () => {
  test("a Pix subscription previews its charge dates and shows the gateway's answer", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "pix-subscription");
    await fillSubscription(page);
    await page.getByLabel("A cada").fill("2");
    await page.getByRole("combobox", { name: "Período" }).click();
    await page.getByRole("option", { name: "Semanas" }).click();
    await page.getByLabel("Períodos até a 1ª cobrança").fill("1");
    const items = page.getByTestId("recurrence-preview").locator("li");
    await expect(items).toHaveCount(4);
    const dates = await items.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-date")!));
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
    expect(day(dates[1]) - day(dates[0])).toBe(14);
    // The console counts days in São Paulo, whatever the test machine's zone.
    const todayIso = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    expect(day(dates[0]) - day(todayIso)).toBe(14);
    await submit(page, "Criar assinatura");
    await expectResult(page);
    await expect(page.getByTestId("subscription-result")).toContainText("Plano Pro");
    await expect(page.getByTestId("gateway-answer")).toContainText(`"identifier": "${identifier}"`);
    await expect(page.getByTestId("gateway-answer")).toContainText('"periodicityType": "WEEKS"');
    await shoot(page, "subscription-pix-result");
  });

  test("a card subscription keeps only brand, BIN and last 4", async ({ adminPage: page }) => {
    await openChargeForm(page, "card-subscription");
    await fillSubscription(page);
    await fillCard(page, { number: "4242424242424242", ip: "203.0.113.44" });
    await submit(page, "Criar assinatura");
    await expectResult(page);
    await expect(page.getByTestId("subscription-result")).toContainText("424242•••4242");
    expect(await page.content()).not.toContain("4242424242424242");
  });

  test("a crypto subscription is created with its network", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "crypto-subscription");
    await fillSubscription(page);
    await page.getByLabel("Criptomoeda").fill("USDC");
    await page.getByLabel("Rede").fill("SOLANA");
    await submit(page, "Criar assinatura");
    await expectResult(page);
    await expect(page.getByTestId("gateway-answer")).toContainText(`"identifier": "${identifier}"`);
    await expect(page.getByTestId("gateway-answer")).toContainText('"paymentMethod": "CRYPTO"');
  });
});
