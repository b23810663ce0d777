import { expect, test } from "../fixtures/test";
import { expectAudited, paidChargeAtSandbox, sandboxControl, shoot, useDemoAccount } from "./helpers";
import { expectResult, fillCustomer, openChargeForm, submit } from "../fixtures/charges";
import { demoPath } from "../fixtures/sandbox";

test.describe("refund requests", () => {
  test("a refund request is PENDING, a second one is named as a duplicate, and an approved refund shows up", async ({
    adminPage: page,
  }) => {
    await useDemoAccount(page);
    const transactionId = await paidChargeAtSandbox(page, 42);

    await page.goto(await demoPath(page, "/refunds/new"));
    await page.getByLabel("ID da transação no gateway").fill(transactionId);
    await page.getByRole("combobox", { name: "Motivo" }).click();
    await page.getByRole("option", { name: "Cobrança em duplicidade" }).click();
    await page.getByLabel("Detalhes (opcional)").fill("Cliente pagou duas vezes");
    await shoot(page, "refund-new");
    await page.getByRole("button", { name: "Enviar pedido" }).click();

    await expect(page).toHaveURL(/\/refunds$/);
    const row = page.getByTestId(`refund-row-${transactionId}`);
    await expect(row.getByTestId("refund-status")).toHaveText("Em análise");
    await expect(row).toContainText("R$ 42,00");
    await expect(row).toContainText("Cobrança em duplicidade");
    await expect(row).toContainText("admin@e2e.test");

    await page.goto(await demoPath(page, "/refunds/new"));
    await page.getByLabel("ID da transação no gateway").fill(transactionId);
    await page.getByRole("button", { name: "Enviar pedido" }).click();
    await expect(page.getByTestId("refund-error")).toContainText("Já existe um pedido de reembolso para esta transação");
    await expect(page.getByLabel("ID da transação no gateway")).toHaveValue(transactionId);
    await shoot(page, "refund-duplicate");

    await page.getByLabel("ID da transação no gateway").fill("tx_that_does_not_exist");
    await page.getByRole("button", { name: "Enviar pedido" }).click();
    await expect(page.getByTestId("refund-error")).toContainText("Transação não encontrada para este produtor");

    // The sandbox approves the refund: the transaction becomes REFUNDED.
    await sandboxControl().event(transactionId, "refund");
    await page.goto(await demoPath(page, "/refunds"));
    await page.getByRole("button", { name: "Atualizar" }).click();
    await page.getByTestId(`refund-row-${transactionId}`).getByRole("button", { name: "Consultar a transação no gateway" }).click();
    await expect(page.getByTestId(`refund-row-${transactionId}`).getByTestId("refund-transaction-status")).toContainText("Reembolsado");
    // The gateway confirmed the transaction refunded: its one request reads the outcome, with whom it went back to.
    await expect(page.getByTestId(`refund-row-${transactionId}`).getByTestId("refund-status")).toContainText("Aprovado");
    await expect(page.getByTestId(`refund-row-${transactionId}`).getByTestId("refund-status")).not.toContainText("Em análise");
    await shoot(page, "refunds-list");
    await expectAudited(page, { email: "admin@e2e.test", action: "refund.requested", target: transactionId });
  });
});

test("a refund is offered only on a paid charge, and its dialog closes with a confirmation", async ({ adminPage: page }) => {
  await openChargeForm(page, "pix");
  await page.getByLabel("Valor (R$)").fill("21,00");
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  const ledgerId = page.url().split("/").pop()!;
  const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();
  const refund = page.getByRole("button", { name: "Pedir reembolso" });

  await page.goto(await demoPath(page, `/transactions/${ledgerId}`));
  await expect(page.getByTestId("live-indicator")).toBeVisible();
  await expect(refund).toHaveCount(0);

  await sandboxControl().event(transactionId, "pay");
  await expect(refund).toBeVisible({ timeout: 15_000 });
  await refund.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("começa em análise");
  await expect(dialog).not.toContainText("PENDING");
  await dialog.getByRole("button", { name: "Enviar pedido" }).click();
  await expect(dialog).toHaveCount(0);
  // The gateway answers `PENDING`; a person reads words.
  await expect(page.getByText("Pedido de reembolso enviado: Em análise")).toBeVisible();
  // Its button gives way to "Ver pedido", which takes the focus.
  await expect(refund).toHaveCount(0);
  await expect(page.getByTestId("view-refund-request")).toBeFocused();
});
