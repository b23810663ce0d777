import { expect, test } from "../fixtures/test";
import {
  expectQrOf,
  expectResult,
  fieldMessage,
  fillCustomer,
  openChargeForm,
  sandboxControl,
  sandboxLookup,
  sandboxLookupBoth,
  submit,
} from "../fixtures/charges";
import { shoot } from "./shots";

test.describe("Pix charges and deposits", () => {
  test("a Pix charge ends on a result whose QR encodes the returned code", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("150,00");
    await fillCustomer(page);
    await expect(page.getByLabel("Telefone")).toHaveValue("(11) 98765-4321");
    await expect(page.getByLabel("CPF ou CNPJ")).toHaveValue("529.982.247-25");
    await page.getByRole("button", { name: "Adicionar produto" }).click();
    await page.getByTestId("product-0").getByLabel("Nome").fill("Curso de fotografia");
    await page.getByTestId("product-0").getByLabel("Preço unit.").fill("140,00");
    await expect(page.getByTestId("total-mismatch")).toContainText("R$ 140,00");
    await page.getByLabel("Frete").fill("10,00");
    await expect(page.getByTestId("total-mismatch")).toHaveCount(0);
    await page.getByRole("button", { name: "Adicionar campo" }).click();
    await page.getByLabel("Chave").fill("pedido");
    await page.getByLabel("Valor", { exact: true }).fill("A-1001");
    // The console owns the notification address: no field lets anyone point the gateway elsewhere.
    await expect(page.getByLabel("URL de notificação (webhook)")).toHaveCount(0);
    await expect(page.getByTestId("account-banner")).toBeVisible();

    await shoot(page, "pix-form");
    await submit(page);
    await expectResult(page);
    await expect(page.getByTestId("result-identifier")).toHaveText(identifier);
    const code = (await page.getByTestId("pix-code").getAttribute("data-value"))!;
    expect(code).toMatch(/^000201/);
    await expectQrOf(page, code);
    const sandbox = await sandboxLookup(identifier);
    expect(sandbox?.id).toBe(await page.getByTestId("result-transaction-id").textContent());
    expect((sandbox?.pixInformation as { qrCode?: string } | null)?.qrCode ?? code).toBe(code);
    await expect(page.getByTestId("receipt-link")).toHaveAttribute("href", /\/receipt\//);
    await expect(page.getByTestId("order-link")).toHaveAttribute("href", /\/pay\//);
    await expect(page.getByTestId("share-whatsapp")).toHaveAttribute("href", /^https:\/\/wa\.me\/\?text=/);
    await expect(page.getByTestId("share-email")).toHaveAttribute("href", /^mailto:maria\.souza%40example\.com\?subject=/);
    const download = page.waitForEvent("download");
    await page.getByTestId("qr-download").click();
    expect((await download).suggestedFilename()).toBe(`pix-${identifier}.png`);
    await shoot(page, "pix-result");
  });

  test("a bad CPF is flagged next to its field and nothing is sent", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("10,00");
    await fillCustomer(page, { document: "12345678900" });
    await submit(page);
    await expect(fieldMessage(page, "CPF ou CNPJ")).toHaveText("Informe um CPF ou CNPJ válido");
    await expect(page).toHaveURL(/\/charges\/new\/pix$/);
    expect(await sandboxLookup(identifier)).toBeNull();
  });

  test("a 503 is an unknown outcome: nothing is sent again, the console proves it absent by itself, then the same charge goes through once", async ({
    adminPage: page,
  }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("42,50");
    await fillCustomer(page);
    // Scoped to this identifier: parallel tests on the same producer are not affected.
    await sandboxControl().fault({ status: 503, times: 1, identifier });
    await submit(page);
    const unknown = page.getByTestId("charge-unknown");
    await expect(unknown).toContainText("Não sabemos se a cobrança foi criada");
    await expect(page.getByRole("button", { name: "Criar cobrança" })).toBeDisabled();
    // No click: the reconciler asks the gateway on its schedule and the form follows.
    await expect(unknown).toContainText("Conferido: nada foi criado no gateway", { timeout: 20_000 });
    await expect(page.getByLabel("Valor (R$)")).toHaveValue("42,50");
    await expect(page.getByLabel("Identificador")).toHaveValue(identifier);
    expect(await sandboxLookup(identifier)).toBeNull();
    await submit(page);
    await expectResult(page);
    expect((await sandboxLookup(identifier))?.amount).toBe(42.5);
  });

  test("a dropped connection yields UNKNOWN that settles on screen by itself; the sandbox holds exactly one charge", async ({
    adminPage: page,
  }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("77,00");
    await fillCustomer(page);
    await sandboxControl().fault({ dropConnection: true, times: 1, identifier });
    await submit(page);
    const unknown = page.getByTestId("charge-unknown");
    await expect(unknown).toContainText("Não sabemos se a cobrança foi criada");
    await expect(page.getByRole("button", { name: "Criar cobrança" })).toBeDisabled();
    await shoot(page, "pix-unknown");
    // Nobody clicks: the reconciler finds the charge and the page moves to its result.
    await expectResult(page, 20_000);
    await expect(page.getByTestId("submission-badge")).toHaveText("Enviada");
    const record = await sandboxLookup(identifier);
    expect(record?.clientIdentifier).toBe(identifier);
    await expect(page.getByTestId("result-transaction-id")).toHaveText(String(record?.id));
    // The sandbox keeps one transaction per identifier: asking by id and identifier together designates that same one.
    expect((await sandboxLookupBoth(String(record?.id), identifier))?.id).toBe(record?.id);
  });

  test("a Pix deposit shows its QR with an expiry countdown", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "deposit");
    await page.getByLabel("Valor (R$)").fill("500,00");
    await submit(page, "Gerar depósito");
    await expectResult(page);
    const code = (await page.getByTestId("pix-code").getAttribute("data-value"))!;
    await expectQrOf(page, code);
    await expect(page.getByTestId("countdown")).toContainText(/Expira em (29|30):\d\d/);
    expect((await sandboxLookup(identifier))?.amount).toBe(500);
    await shoot(page, "deposit-result");
  });
});
