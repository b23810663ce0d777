import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { demoAccountId, demoPath, gatewayPost, sandboxControl, webhookUrl } from "../fixtures/sandbox";

const SHOTS = process.env.SALES_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [label, width] of [
    ["desktop", 1360],
    ["mobile", 390],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** A buyer visits the hosted checkout (with the UTM values in its address) and pays now or leaves it for later. */
async function buy(browser: Browser, url: string, payLater = false): Promise<string> {
  const context = await browser.newContext();
  const buyer = await context.newPage();
  await buyer.goto(url);
  if (payLater) await buyer.getByLabel(/Pagar depois/).check();
  await buyer.getByRole("button", { name: /Pagar/ }).click();
  await expect(buyer.getByRole("heading", { name: payLater ? "Aguardando pagamento" : "Pagamento aprovado" })).toBeVisible();
  const transactionId = (await buyer.locator("dd.mono").first().textContent())!.trim();
  await context.close();
  return transactionId;
}

function originRow(page: Page, value: string) {
  return page.locator(`[data-testid="origin-row"][data-origin="${value}"]`);
}

test("after sandbox sales with known UTM values, the origin table shows exactly those figures", async ({
  adminPage: page,
  request,
  browser,
}) => {
  const accountId = await demoAccountId(page);
  await sandboxControl().setWebhookUrl(webhookUrl(accountId));
  const run = randomUUID().slice(0, 8);
  const product = `Curso de origem ${run}`;
  const { checkoutUrl } = await gatewayPost<{ checkoutUrl: string }>(request, "/checkout", {
    product: {
      externalId: `prod-${run}`,
      name: product,
      offer: { name: "Oferta", price: 100, offerType: "ONE_TIME", currency: "BRL", lang: "pt-BR" },
    },
    settings: { paymentMethods: ["PIX"] },
    customer: { name: "Ana Pereira", email: "ana@example.com", document: "529.982.247-25" },
  });
  const instagram = `instagram-${run}`;
  const facebook = `facebook-${run}`;
  const withUtm = (source: string) => `${checkoutUrl}?utm_source=${source}&utm_medium=cpc&utm_campaign=lancamento-${run}`;

  const first = await buy(browser, withUtm(instagram));
  await buy(browser, withUtm(instagram));
  await buy(browser, withUtm(instagram), true);
  await buy(browser, withUtm(facebook));
  await buy(browser, checkoutUrl); // no UTM: counted under "direto / desconhecida", never dropped
  await sandboxControl().event(first, "chargeback");

  await page.goto(await demoPath(page, `/sales/origin?period=7d`));
  const instagramRow = originRow(page, instagram);
  await expect(async () => {
    await page.reload();
    await expect(instagramRow.locator('[data-col="created"]')).toHaveText("3", { timeout: 1_000 });
    await expect(instagramRow.locator('[data-col="chargeback-rate"]')).toHaveText("50,0%", { timeout: 1_000 });
    await expect(originRow(page, facebook).locator('[data-col="sales"]')).toHaveText("1", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  const cells = async (value: string) =>
    Object.fromEntries(
      await Promise.all(
        ["created", "paid", "conversion", "sales", "revenue", "refund-rate", "chargeback-rate"].map(
          async (col) => [col, (await originRow(page, value).locator(`[data-col="${col}"]`).innerText()).trim()] as const,
        ),
      ),
    );
  expect(await cells(instagram)).toEqual({
    created: "3",
    paid: "2",
    conversion: "66,7%",
    sales: "2",
    revenue: "R$ 200,00",
    "refund-rate": "0,0%",
    "chargeback-rate": "50,0%",
  });
  expect(await cells(facebook)).toEqual({
    created: "1",
    paid: "1",
    conversion: "100,0%",
    sales: "1",
    revenue: "R$ 100,00",
    "refund-rate": "0,0%",
    "chargeback-rate": "0,0%",
  });
  await expect(originRow(page, "")).toContainText("direto / desconhecida");
  // The sandbox's Pix fee is 0,99 % (its notifications report it): R$ 0,99 of each R$ 100,00 sale, gross like revenue.
  const net = async (value: string) => ({
    fees: (await originRow(page, value).locator('[data-col="fees"]').innerText()).trim(),
    net: (await originRow(page, value).locator('[data-col="net"]').innerText()).trim(),
  });
  expect(await net(instagram)).toEqual({ fees: "R$ 1,98", net: "R$ 198,02" });
  expect(await net(facebook)).toEqual({ fees: "R$ 0,99", net: "R$ 99,01" });

  // By product: the five visits of this product's checkout, whatever their origin.
  await page.getByRole("link", { name: "Produto", exact: true }).click();
  await expect(page).toHaveURL(/dimension=product/);
  expect(await cells(product)).toEqual({
    created: "5",
    paid: "4",
    conversion: "80,0%",
    sales: "4",
    revenue: "R$ 400,00",
    "refund-rate": "0,0%",
    "chargeback-rate": "25,0%",
  });
  await shoot(page, "sales-origin");

  // The table's CSV carries the same figures.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /Exportar .* em CSV/ }).click();
  const csv = await (await (await download).createReadStream()).toArray();
  const text = Buffer.concat(csv).toString("utf8");
  expect(text.startsWith("\uFEFF")).toBe(true);
  expect(text).toContain(`${product};5;4;80,0;4;0,0;25,0;BRL;400,00;3,96;396,04;0`);

  // The overview counts the same sales among the period's.
  await page.goto(await demoPath(page, "/sales?period=7d"));
  await expect(page.getByTestId("sales-figure-revenue-value")).toContainText("R$");
  await expect(page.getByTestId("sales-figure-net-revenue-value")).toContainText("R$");
  await expect(page.getByTestId("sales-figure-fees-value")).toContainText("R$");
  await expect(page.getByTestId("methods-table")).toContainText("Pix");
  await shoot(page, "sales-overview");
});

test("a bad period in the address gets a clear message and the page shows the default", async ({ adminPage: page }) => {
  await page.goto(await demoPath(page, "/sales?from=2026-13-40&to=x"));
  await expect(page.getByTestId("params-problems")).toContainText("data inicial");
  await expect(page.getByTestId("period-presets").getByRole("link", { name: "30 dias" })).toHaveAttribute("aria-current", "true");
  await page.goto(await demoPath(page, "/sales/origin?from=2026-05-10&to=2026-05-01"));
  await expect(page.getByTestId("period-refused")).toContainText("Período inválido");
});

test("a custom period is typed as dd/mm/aaaa in the console's own date fields and applied", async ({ adminPage: page }) => {
  await page.goto(await demoPath(page, "/sales?period=7d"));
  const from = page.getByLabel("De", { exact: true });
  await expect(from).toHaveAttribute("placeholder", "dd/mm/aaaa");
  await from.fill("");
  await from.pressSequentially("01102026");
  await expect(from).toHaveValue("01/10/2026");
  const to = page.getByLabel("Até", { exact: true });
  await to.fill("");
  await to.pressSequentially("15102026");
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/from=2026-10-01&to=2026-10-15/);
  await expect(page.getByTestId("period-range")).toContainText("01/10/2026 a 15/10/2026");
  await expect(page.getByLabel("De", { exact: true })).toHaveValue("01/10/2026");
});
