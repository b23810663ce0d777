import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";
import { expectResult, fieldMessage, fillCustomer, openChargeForm, submit } from "../fixtures/charges";
import { demoPath } from "../fixtures/sandbox";
import { authenticator, sandboxControl, useDemoAccount } from "./helpers";

test.describe("one truth per page", () => {
  test("a Pix charge paid, then refunded through the console: no code to pay anywhere, and its request reads the outcome", async ({
    adminPage: page,
  }) => {
    await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("0");
    await submit(page);
    // An amount of zero is not a missing amount.
    await expect(fieldMessage(page, "Valor (R$)")).toHaveText("O valor deve ser maior que zero");
    await page.getByLabel("Valor (R$)").fill("3150");
    await fillCustomer(page, { name: "Carla Menezes" });
    await submit(page);
    await expectResult(page);
    const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();
    const chargeUrl = page.url();
    const ledgerId = chargeUrl.split("/").pop()!;
    await expect(page.getByTestId("pix-code")).toBeVisible();

    await sandboxControl().event(transactionId, "pay");
    const transactionPage = await demoPath(page, `/transactions/${ledgerId}`);
    await page.goto(transactionPage);
    const requestRefund = page.getByRole("button", { name: "Pedir reembolso" });
    await expect(async () => {
      await page.reload();
      await expect(requestRefund).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000, intervals: [1_000] });
    // Paid: nothing left to pay with.
    await expect(page.getByTestId("pix-code")).toHaveCount(0);

    // The dialog names whom the money goes back to, and how much.
    await requestRefund.click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByTestId("refund-subject")).toHaveText("R$ 31,50 de volta para Carla Menezes");
    await dialog.getByRole("button", { name: "Enviar pedido" }).click();
    await expect(page.getByText("Pedido de reembolso enviado: Em análise")).toBeVisible();
    // A request waiting for its outcome is shown, not asked for twice.
    const viewRequest = page.getByTestId("view-refund-request");
    await expect(viewRequest).toBeVisible();
    await expect(requestRefund).toHaveCount(0);
    await expect(page.getByTestId("refund-request")).toHaveAttribute("data-status", "PENDING");

    // The request on the refunds list names the customer, and "Ver pedido" leads to it.
    await viewRequest.click();
    await expect(page).toHaveURL(/\/refunds#refund-/);
    const row = page.getByTestId(`refund-row-${transactionId}`);
    await expect(row.getByTestId("refund-customer")).toContainText("Carla Menezes");
    await expect(row).toContainText("R$ 31,50");
    await expect(row.getByTestId("refund-status")).toContainText("Em análise");

    // The gateway approves it at its control API: the refund id is the one the console recorded (audit details).
    await page.goto(`/admin/audit?${new URLSearchParams({ action: "refund.requested", email: "admin@e2e.test" })}`);
    const audit = page.getByTestId("audit-row").filter({ hasText: transactionId }).first();
    const details = JSON.parse((await audit.locator("pre").textContent()) ?? "{}") as { refundRequestId?: string };
    expect(details.refundRequestId, "the gateway's refund id").toBeTruthy();
    await sandboxControl().approveRefund(details.refundRequestId!);

    // Confirmed by the gateway's lookup, the transaction reads refunded, and so does its request.
    await page.goto(transactionPage);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("refund-request")).toHaveAttribute("data-status", "REFUNDED", { timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    await expect(page.getByTestId("refund-request")).toContainText("Aprovado");
    await expect(page.getByTestId("refund-request")).not.toContainText("Em análise");
    await expect(page.getByTestId("pix-code")).toHaveCount(0);
    await expect(page.getByTestId("not-payable")).toBeVisible();
    // Not in the raw answers either.
    const code = await page.locator("pre").allTextContents();
    expect(code.join("\n")).not.toMatch(/"(code|qrCode)":/);
    await expect(page.getByTestId("view-refund-request")).toHaveCount(0);

    await page.goto(await demoPath(page, "/refunds"));
    await expect(page.getByTestId(`refund-row-${transactionId}`).getByTestId("refund-status")).toContainText("Aprovado");

    // The charge page and the lookup agree: no code to pay.
    await page.goto(chargeUrl);
    await expect(page.getByTestId("closed-result")).toBeVisible();
    await expect(page.getByTestId("pix-code")).toHaveCount(0);
    await page.goto(await demoPath(page, "/lookup"));
    await page.getByLabel("Valor a buscar").fill(transactionId);
    await page.getByRole("button", { name: "Consultar" }).click();
    await expect(page.getByTestId("lookup-result")).toBeVisible();
    expect(await page.getByTestId("lookup-result").locator("pre").textContent()).not.toMatch(/"(code|qrCode)":/);
  });

  test("turning on the second factor updates its badge at once", async ({ adminPage: page, browser }) => {
    const user = await createUserAsAdmin(page, { role: "producer" });
    const own = await signedInPage(browser, user);
    await own.goto("/profile/security");
    const badge = own.getByTestId("second-factor-state");
    await expect(badge).toHaveText("Desativada");
    await own.getByTestId("enable-second-factor").click();
    const app = authenticator((await own.getByTestId("totp-key").textContent()) ?? "");
    await own.getByLabel("Código de 6 dígitos").fill(await app.code());
    await own.getByRole("button", { name: "Confirmar e ativar" }).click();
    // The recovery codes are still on screen: the badge already says it is on.
    await expect(own.getByTestId("recovery-codes")).toBeVisible();
    await expect(badge).toContainText("Ativada desde");
    await own.context().close();
  });

  test("the transfer form names every missing field in one submit", async ({ adminPage: page }) => {
    await useDemoAccount(page);
    await page.goto(await demoPath(page, "/transfers/new"));
    await page.getByRole("button", { name: "Revisar transferência" }).click();
    for (const label of ["Valor", "Chave Pix", "Nome do titular", "Número do documento"]) {
      await expect(fieldMessage(page, new RegExp(`^${label}$`)), label).not.toBeEmpty();
    }
    await expect(page.getByTestId("transfer-review")).toHaveCount(0);
  });
});
