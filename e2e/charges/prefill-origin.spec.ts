import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures/test";
import { demoPath } from "../fixtures/sandbox";
import { expectResult, fieldMessage, fillCustomer, openChargeForm, sandboxLookup, submit } from "../fixtures/charges";
import { shoot } from "./shots";

const ledgerIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;

test.describe("Origem and new charges made from old ones", () => {
  test("a Pix charge with an Origem, then a new one from it: prefilled, under a fresh identifier, sent as a charge of its own", async ({
    adminPage: page,
  }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("150,00");
    await fillCustomer(page);
    await page.getByRole("button", { name: "Adicionar produto" }).click();
    await page.getByTestId("product-0").getByLabel("Nome").fill("Curso de fotografia");
    await page.getByTestId("product-0").getByLabel("Preço unit.").fill("150,00");
    await page.getByLabel("Origem", { exact: true }).fill("instagram");
    await page.getByRole("button", { name: "Adicionar campo" }).click();
    await page.getByLabel("Chave").fill("pedido");
    await page.getByLabel("Valor", { exact: true }).fill("A-1001");
    await submit(page);
    await expectResult(page);
    const oldId = ledgerIdOf(page.url());

    await page.goto(await demoPath(page, `/charges/new/pix?from=${oldId}`));
    const notice = page.getByTestId("prefill-notice");
    await expect(notice).toHaveAttribute("data-state", "copied");
    await expect(notice).toContainText(`Cobrança nova a partir de ${identifier}`);
    await expect(notice.getByTestId("prefill-source")).toHaveAttribute("href", new RegExp(`/charges/${oldId}$`));
    await expect(page.getByLabel("Identificador")).not.toHaveValue("");
    const newIdentifier = (await page.getByLabel("Identificador").inputValue()).trim();
    expect(newIdentifier).toMatch(/^pix-\d{8}-[0-9a-f]{10}$/);
    expect(newIdentifier).not.toBe(identifier);
    await expect(page.getByLabel("Valor (R$)")).toHaveValue("150,00");
    await expect(page.getByLabel("Nome completo")).toHaveValue("Maria Souza");
    await expect(page.getByLabel("E-mail")).toHaveValue("maria.souza@example.com");
    await expect(page.getByLabel("Telefone")).toHaveValue("(11) 98765-4321");
    await expect(page.getByLabel("CPF ou CNPJ")).toHaveValue("529.982.247-25");
    await expect(page.getByTestId("product-0").getByLabel("Nome")).toHaveValue("Curso de fotografia");
    await expect(page.getByTestId("product-0").getByLabel("Preço unit.")).toHaveValue("150,00");
    await expect(page.getByLabel("Origem", { exact: true })).toHaveValue("instagram");
    await expect(page.getByLabel("Chave")).toHaveValue("pedido");
    await expect(page.getByLabel("Valor", { exact: true })).toHaveValue("A-1001");
    await shoot(page, "pix-prefilled");

    await submit(page);
    await expectResult(page);
    expect(ledgerIdOf(page.url())).not.toBe(oldId);
    await expect(page.getByTestId("result-identifier")).toHaveText(newIdentifier);
    expect((await sandboxLookup(newIdentifier))?.amount).toBe(150);
    expect((await sandboxLookup(identifier))?.id).not.toBe((await sandboxLookup(newIdentifier))?.id);

    // The same old charge on another kind's form: nothing copied, and a way to the right form.
    await page.goto(await demoPath(page, `/charges/new/boleto?from=${oldId}`));
    await expect(page.getByTestId("prefill-notice")).toHaveAttribute("data-state", "otherKind");
    await expect(page.getByTestId("prefill-notice")).toContainText("Cobrança Pix");
    await expect(page.getByLabel("Valor (R$)")).toHaveValue("");
    await expect(page.getByLabel("Nome completo")).toHaveValue("");
    await shoot(page, "boleto-from-pix");
  });

  test("an address naming no charge of this account, or no id at all, opens the empty form and says why", async ({ adminPage: page }) => {
    await page.goto(await demoPath(page, `/charges/new/pix?from=${randomUUID()}`));
    await expect(page.getByTestId("prefill-notice")).toHaveAttribute("data-state", "notFound");
    await expect(page.getByTestId("prefill-notice")).toContainText("Cobrança anterior não encontrada");
    await expect(page.getByLabel("Valor (R$)")).toHaveValue("");
    await shoot(page, "pix-from-unknown");

    await page.goto(await demoPath(page, "/charges/new/pix?from=not-an-id"));
    await expect(page.getByTestId("params-problems")).toContainText("cobrança anterior — identificador inválido");
    await expect(page.getByTestId("prefill-notice")).toHaveCount(0);
    await expect(page.getByTestId("charge-form")).toBeVisible();
    await expect(page.getByLabel("Nome completo")).toHaveValue("");
    await shoot(page, "pix-from-bad-id");
  });

  test("an Origem longer than the sales reports keep is flagged at its field, with what was typed kept", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "boleto");
    await page.getByLabel("Valor (R$)").fill("10,00");
    await fillCustomer(page);
    const long = "indicação ".repeat(21);
    await page.getByLabel("Origem", { exact: true }).fill(long);
    await submit(page);
    await expect(fieldMessage(page, "Origem")).toHaveText("Use até 200 caracteres");
    await expect(page.getByLabel("Origem", { exact: true })).toHaveValue(long);
    expect(await sandboxLookup(identifier)).toBeNull();
  });
});
