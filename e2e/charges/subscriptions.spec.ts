import { expect, test } from "../fixtures/test";
import { expectQrOf, expectResult, fillCard, fillCustomer, openChargeForm, sandboxControl, submit } from "../fixtures/charges";
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

  test("a Pix subscription's page turns into the paid state when its first charge is paid, without a reload", async ({
    adminPage: page,
  }) => {
    await openChargeForm(page, "pix-subscription");
    await fillSubscription(page);
    await submit(page, "Criar assinatura");
    await expectResult(page);
    // The first charge's payment instructions, from the subscription's answer.
    const result = page.getByTestId("subscription-result");
    await expect(result).toHaveAttribute("data-first-charge", /none|awaiting/);
    const code = (await page.getByTestId("pix-code").getAttribute("data-value"))!;
    await expectQrOf(page, code);
    const transactionId = (await page.getByTestId("first-charge-id").textContent())!.trim();
    await shoot(page, "subscription-pix-awaiting");

    // The customer pays while the page is open: the same document turns into the receipt.
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
    await sandboxControl().event(transactionId, "pay");
    await expect(page.getByTestId("paid-result")).toBeVisible({ timeout: 15_000 });
    await expect(result).toHaveAttribute("data-first-charge", "paid");
    await expect(page.getByTestId("paid-result")).toContainText("Assinatura paga");
    await expect(page.getByTestId("paid-amount")).toHaveText("R$ 29,90");
    await expect(page.getByTestId("paid-result")).toContainText(transactionId);
    await expect(page.getByTestId("print-receipt")).toBeVisible();
    // The QR code, the copy-and-paste code and the answer that carried them are gone.
    await expect(page.getByTestId("pix-code")).toHaveCount(0);
    await expect(page.getByTestId("qr-svg")).toHaveCount(0);
    await expect(page.getByTestId("gateway-answer")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    // The subscription itself is still described, its first charge linked to its transaction page.
    await expect(result).toContainText("Plano Pro");
    await expect(page.getByTestId("first-charge-id")).toHaveAttribute("href", /^\/[0-9a-f-]{36}\/transactions\/[0-9a-f-]{36}$/);
    await shoot(page, "subscription-pix-paid");
  });

  test("a card subscription keeps only brand, BIN and last 4", async ({ adminPage: page }) => {
    await openChargeForm(page, "card-subscription");
    await fillSubscription(page);
    await fillCard(page, { number: "4242424242424242", ip: "203.0.113.44" });
    await submit(page, "Criar assinatura");
    await expectResult(page);
    await expect(page.getByTestId("subscription-result")).toContainText("424242•••4242");
    expect(await page.content()).not.toContain("4242424242424242");
    // An approved card pays the first charge at once: the page shows it once the gateway confirms.
    await expect(page.getByTestId("paid-result")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("paid-amount")).toHaveText("R$ 29,90");
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
