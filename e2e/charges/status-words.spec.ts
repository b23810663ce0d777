import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { expectResult, fillCustomer, openChargeForm, sandboxControl, submit } from "../fixtures/charges";

const RAW_CODES = /\b(OK|PENDING|COMPLETED|SUBMITTED|CHARGED_BACK|REFUNDED|FAILED|CANCELED|EM_ANALISE)\b/;

/** What a person reads on the page (not the payloads shown as code, nor tooltips). */
async function visibleWords(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const clone = main.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("pre, code, [data-raw]").forEach((node) => node.remove());
    return clone.innerText;
  });
}

test("an unpaid Pix charge reads “Aguardando pagamento” on its page, in the list and in the feed; once paid, “Pago”; no raw code on any of them", async ({ adminPage: page }) => {
  const identifier = await openChargeForm(page, "pix");
  await page.getByLabel("Valor (R$)").fill("19,90");
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  const resultUrl = page.url();
  const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();

  await expect(page.getByTestId("gateway-status")).toHaveText("Aguardando pagamento");
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);

  await page.goto(`/transactions?q=${identifier}`);
  await expect(page.getByTestId("transaction-row")).toContainText("Aguardando pagamento");
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);

  await page.goto("/activity");
  const created = page.locator(`[data-testid="feed-row"][data-transaction-id="${transactionId}"][data-event="TRANSACTION_CREATED"]`);
  await expect(created).toContainText("Aguardando pagamento", { timeout: 15_000 });

  await sandboxControl().event(transactionId, "pay");
  const paid = page.locator(`[data-testid="feed-row"][data-transaction-id="${transactionId}"][data-event="TRANSACTION_PAID"]`);
  await expect(paid).toContainText("Pago", { timeout: 15_000 });
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);

  await page.goto(resultUrl);
  await expect(page.getByTestId("gateway-status")).toHaveText("Pago");
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);
  await page.goto(`/transactions?q=${identifier}`);
  await expect(page.getByTestId("transaction-row")).toContainText("Pago");
  await page.getByTestId("transaction-row").getByRole("link").first().click();
  await expect(page).toHaveURL(/\/transactions\/[^/?]+$/);
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);
  await page.goto("/");
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);
});
