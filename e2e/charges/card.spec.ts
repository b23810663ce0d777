import { expect, test } from "../fixtures/test";
import {
  expectResult,
  fieldMessage,
  fillAddress,
  fillCard,
  fillCustomer,
  openChargeForm,
  sandboxLookup,
  submit,
} from "../fixtures/charges";
import { shoot } from "./shots";

test.describe("card charges", () => {
  test("an approved card shows the brand while typing, the IP default and a masked card on the result", async ({
    adminPage: page,
    clientIp,
  }) => {
    const identifier = await openChargeForm(page, "card");
    await page.getByLabel("Valor (R$)").fill("299,90");
    await fillCustomer(page);
    await fillAddress(page);
    await expect(page.getByLabel("CEP")).toHaveValue("01310-100");
    await page.getByLabel("Número do cartão").fill("4111111111111111");
    await expect(page.getByLabel("Número do cartão")).toHaveValue("4111 1111 1111 1111");
    await expect(page.getByTestId("card-brand")).toHaveText("Bandeira: VISA");
    await fillCard(page, { number: "4111111111111111" });
    const ip = page.getByLabel("IP do cliente (IPv4)");
    await expect(page.getByText("Exigido pelo gateway para cartão: o endereço IP do comprador")).toBeVisible();
    if (/^\d+\.\d+\.\d+\.\d+$/.test(clientIp)) await expect(ip).not.toHaveValue("");
    await ip.fill("203.0.113.10");
    await page.getByRole("combobox", { name: "Parcelas" }).click();
    await page.getByRole("option", { name: "3x" }).click();
    await submit(page);
    await expectResult(page);
    await expect(page.getByTestId("card-result")).toHaveAttribute("data-outcome", "approved");
    await expect(page.getByTestId("card-outcome")).toHaveText("Pagamento aprovado");
    await expect(page.getByTestId("masked-card-number")).toHaveText("4111 11•• •••• 1111");
    const html = await page.content();
    expect(html).not.toContain("4111111111111111");
    expect(html).not.toContain("4111 1111 1111 1111");
    expect((await sandboxLookup(identifier))?.status).toBe("COMPLETED");
    await shoot(page, "card-approved");
  });

  test("a declined test card shows the reason from the gateway", async ({ adminPage: page }) => {
    await openChargeForm(page, "card");
    await page.getByLabel("Valor (R$)").fill("80,00");
    await fillCustomer(page);
    await fillAddress(page);
    await fillCard(page, { number: "4000000000009995", ip: "198.51.100.23" });
    await submit(page);
    await expectResult(page);
    await expect(page.getByTestId("card-result")).toHaveAttribute("data-outcome", "declined");
    await expect(page.getByTestId("card-outcome")).toHaveText("Pagamento recusado");
    await expect(page.getByTestId("decline-reason")).toContainText("Cartão recusado: saldo insuficiente");
    await expect(page.getByTestId("gateway-status")).toHaveText("Falhou");
    await shoot(page, "card-declined");
  });

  test("bad card, expired card, invalid IP and bad CEP are flagged on their fields", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "card");
    await page.getByLabel("Valor (R$)").fill("10,00");
    await fillCustomer(page);
    await fillAddress(page, { zipCode: "0131" });
    await fillCard(page, { number: "4111111111111112", expiresAt: "01/20", ip: "300.1.2.3" });
    await submit(page);
    await expect(fieldMessage(page, "Número do cartão")).toHaveText("Número de cartão inválido");
    await expect(fieldMessage(page, "Validade (MM/AA)")).toHaveText("Cartão vencido");
    await expect(fieldMessage(page, "IP do cliente (IPv4)")).toHaveText("Endereço IPv4 inválido");
    await expect(fieldMessage(page, "CEP")).toHaveText(/CEP inválido/);
    await expect(page).toHaveURL(/\/charges\/new\/card$/);
    await shoot(page, "card-form-errors");
    expect(await sandboxLookup(identifier)).toBeNull();
  });
});
