import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { expectResult, fillCustomer, openChargeForm, sandboxControl, submit } from "../fixtures/charges";
import { demoPath } from "../fixtures/sandbox";

const RAW_CODES = /\b(OK|PENDING|COMPLETED|SUBMITTED|CHARGED_BACK|REFUNDED|FAILED|CANCELED|EM_ANALISE)\b/;

/** What a person reads on the page (not the payloads shown as code, nor tooltips). */
async function visibleWords(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const clone = main.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("pre, code, [data-raw]").forEach((node) => node.remove());
    return clone.innerText;
  });
}

test("an unpaid Pix charge reads “Aguardando pagamento” on its page, in the list and in the feed; once paid, “Pago”; no raw code on any of them", async ({
  adminPage: page,
}) => {
  const identifier = await openChargeForm(page, "pix");
  await page.getByLabel("Valor (R$)").fill("19,90");
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  const resultUrl = page.url();
  const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();

  await expect(page.getByTestId("gateway-status")).toHaveText("Aguardando pagamento");
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);

  await page.goto(await demoPath(page, `/transactions?q=${identifier}`));
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
  await page.goto(await demoPath(page, `/transactions?q=${identifier}`));
  await expect(page.getByTestId("transaction-row")).toContainText("Pago");
  await page.getByTestId("transaction-row").getByRole("link").first().click();
  await expect(page).toHaveURL(/\/transactions\/[^/?]+$/);
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);
  await page.goto(await demoPath(page, ""));
  expect(await visibleWords(page)).not.toMatch(RAW_CODES);
});

/** RAW_CODES and the notifications' names: neither belongs in the words of the timeline. */
const RAW_CODES_OR_EVENTS = new RegExp(`${RAW_CODES.source}|\\b(TRANSACTION|WITHDRAW)_[A-Z_]+\\b`);

test("the transaction timeline says the submission, each notification and its status in words (codes in the tooltip), and so does the refunds page", async ({
  adminPage: page,
}) => {
  await openChargeForm(page, "pix");
  await page.getByLabel("Valor (R$)").fill("23,40");
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  const ledgerId = page.url().split("/").pop()!;
  const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();

  await page.goto(await demoPath(page, `/transactions/${ledgerId}`));
  const timeline = page.getByTestId("timeline");
  await expect(timeline).toContainText("Envio: Enviada");
  const created = timeline.locator("li", { hasText: "Notificação de criação recebida: Aguardando pagamento" });
  await expect(async () => {
    await page.reload();
    await expect(created).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(created).toHaveAttribute("title", /TRANSACTION_CREATED/);
  expect(await visibleWords(page)).not.toMatch(RAW_CODES_OR_EVENTS);

  await sandboxControl().event(transactionId, "pay");
  const paid = timeline.locator("li", { hasText: "Notificação de pagamento recebida: Pago" });
  await expect(async () => {
    await page.reload();
    await expect(paid).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(paid).toHaveAttribute("data-codes", "TRANSACTION_PAID · COMPLETED");
  expect(await visibleWords(page)).not.toMatch(RAW_CODES_OR_EVENTS);

  // A refund request, then the gateway refunds: the refunds page and the timeline stay in words.
  const refund = page.getByRole("button", { name: "Pedir reembolso" });
  await refund.click();
  await page.getByRole("dialog").getByRole("button", { name: "Enviar pedido" }).click();
  await expect(page.getByText("Pedido de reembolso enviado: Em análise")).toBeVisible();
  await sandboxControl().event(transactionId, "refund");
  const refunded = timeline.locator("li", { hasText: "Notificação de reembolso recebida: Reembolsado" });
  await expect(async () => {
    await page.reload();
    await expect(refunded).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  expect(await visibleWords(page)).not.toMatch(RAW_CODES_OR_EVENTS);

  await page.goto(await demoPath(page, "/refunds"));
  const row = page.getByTestId(`refund-row-${transactionId}`);
  await expect(row.getByTestId("refund-status")).toBeVisible();
  await expect(page.getByText("a transação passa a Reembolsado e o pedido também")).toBeVisible();
  await row.getByRole("button", { name: "Consultar a transação no gateway" }).click();
  await expect(page.getByText("Transação consultada: Reembolsado")).toBeVisible();
  await expect(row.getByTestId("refund-transaction-status")).toContainText("Reembolsado");
  expect(await visibleWords(page)).not.toMatch(RAW_CODES_OR_EVENTS);

  // The lookup is on the timeline too, in words.
  await page.goto(await demoPath(page, `/transactions/${ledgerId}`));
  expect(await visibleWords(page)).not.toMatch(RAW_CODES_OR_EVENTS);
});
