import type { Request } from "@playwright/test";
import { createUserAsAdmin, expect, newClientContext, signedInPage, signInWithApi, test } from "../fixtures/test";
import { E2E } from "../fixtures/env";
import { expectAudited, fillTransfer, sandboxControl, shoot, useDemoAccount } from "./helpers";
import { demoPath } from "../fixtures/sandbox";

test.describe("Pix transfers", () => {
  test("a producer transfers through both confirmations and the notification is reflected only with the right token", async ({
    browser,
    adminPage,
  }) => {
    const producer = await createUserAsAdmin(adminPage, { role: "producer" });
    const page = await signedInPage(browser, producer);
    await page.goto(await demoPath(page, "/transfers/new"));
    await shoot(page, "transfer-form-empty");
    await page.getByLabel("Nome do titular", { exact: true }).fill("João da Conceição");
    await expect(page.getByTestId("owner-name-sent")).toHaveText("Será enviado como: Joao da Conceicao");
    const identifier = await fillTransfer(page);

    const review = page.getByTestId("transfer-review");
    await expect(review).toContainText("Joao da Conceicao");
    await expect(review).toContainText("recebedor@example.com");
    await expect(review).toContainText("R$ 15,00");
    await expect(review).toContainText("Descontar a taxa do valor recebido");
    // The review names the account the money leaves and whether it is real money.
    await expect(review.getByTestId("review-account")).toContainText("Sandbox — demo");
    await expect(review).toContainText("Teste: nenhum dinheiro de verdade se move.");
    await shoot(page, "transfer-review");

    await page.getByRole("button", { name: "Confirmar e continuar" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Confirme com a sua senha" })).toBeVisible();
    await dialog.getByLabel("Sua senha").fill(producer.password);
    await dialog.getByRole("button", { name: "Autorizar e enviar" }).click();

    await expect(page).toHaveURL(/\/transfers\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("transfer-status")).toContainText("Em processamento");
    await expect(page.getByText(identifier)).toBeVisible();
    await expect(page.getByRole("link", { name: "Abrir comprovante" }).first()).toHaveAttribute("href", /transfer-receipt/);
    const transferUrl = page.url();
    const withdrawId = await page.locator("[data-withdraw-id]").getAttribute("data-withdraw-id");
    expect(withdrawId).toBeTruthy();
    await shoot(page, "transfer-detail-pending");

    // A notification with a forged token changes nothing.
    await page.goto("/accounts");
    const accountId = (await page.getByRole("link", { name: "Sandbox — demo" }).first().getAttribute("href"))?.split("/").pop();
    expect(accountId).toBeTruthy();
    const forged = await page.request.post(`${E2E.baseUrl}/api/webhooks/${accountId}`, {
      data: {
        event: "WITHDRAW_COMPLETED",
        token: "wht_forged",
        identifier,
        withdraw: { id: withdrawId, status: "COMPLETED" },
        payoutAccount: {},
      },
    });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    await page.goto(transferUrl);
    await expect(page.getByTestId("transfer-status")).toContainText("Em processamento");
    await expect(page.getByText("Nenhuma notificação recebida ainda.", { exact: false })).toBeVisible();

    // The sandbox completes the withdraw and notifies the console with the transfer's own token.
    await expect(page.getByTestId("transfer-waiting")).toBeVisible();
    await sandboxControl().completeWithdraw(withdrawId!);
    // The open page follows the notification by itself: no reload.
    await expect(page.getByTestId("transfer-completed")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("transfer-status")).toContainText("Concluída");
    await expect(page.getByRole("cell", { name: "Saque concluído" })).toBeVisible();
    // One state source for the page: the withdraw card follows its transfer too.
    await expect(page.getByTestId("transfer-withdraw")).toContainText("Concluída");
    await expect(page.locator("main")).not.toContainText("Em processamento");
    await shoot(page, "transfer-detail-completed");

    await page.goto(await demoPath(page, "/transfers"));
    await expect(page.getByTestId(`transfer-row-${identifier}`)).toContainText("Concluída");
    await shoot(page, "transfers-list");
    await page.context().close();
    await expectAudited(adminPage, { email: producer.email, action: "transfer.submitted", target: identifier });
  });

  test("on one machine (the user's address is loopback, as the console's is) a Pix transfer goes through and reaches “Concluída”", async ({
    browser,
    adminPage,
  }) => {
    const producer = await createUserAsAdmin(adminPage, { role: "producer" });
    // The user at http://localhost:3000: the browser's address, as the console sees it, is 127.0.0.1.
    const context = await newClientContext(browser, "127.0.0.1");
    expect((await signInWithApi(context.request, producer)).status()).toBeLessThan(400);
    const page = await context.newPage();
    const identifier = await fillTransfer(page, {
      amountDigits: "1250",
      key: "loopback@example.com",
      ownerName: "Ana Lima",
      cpf: "52998224725",
    });
    const review = page.getByTestId("transfer-review");
    await expect(review.getByText("Endereço IP do solicitante")).toBeVisible();
    await expect(review.getByTestId("review-owner-ip")).toHaveText("127.0.0.1");
    await page.getByRole("button", { name: "Confirmar e continuar" }).click();
    await page.getByRole("dialog").getByLabel("Sua senha").fill(producer.password);
    await page.getByRole("dialog").getByRole("button", { name: "Autorizar e enviar" }).click();

    // The sandbox accepts owner.ip = the caller's address when both are loopback (sandbox/README.md).
    await expect(page).toHaveURL(/\/transfers\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("transfer-status")).toContainText("Em processamento");
    const withdrawId = await page.locator("[data-withdraw-id]").getAttribute("data-withdraw-id");
    expect(withdrawId).toBeTruthy();
    await sandboxControl().completeWithdraw(withdrawId!);
    await expect(page.getByTestId("transfer-status")).toContainText("Concluída", { timeout: 15_000 });
    await page.goto(await demoPath(page, "/transfers"));
    await expect(page.getByTestId(`transfer-row-${identifier}`)).toContainText("Concluída");
    await context.close();

    // A browser on the same machine over IPv6 loopback is sent as 127.0.0.1 (the gateway wants IPv4).
    const v6 = await newClientContext(browser, "::1");
    expect((await signInWithApi(v6.request, producer)).status()).toBeLessThan(400);
    const v6Page = await v6.newPage();
    await fillTransfer(v6Page);
    await expect(v6Page.getByTestId("review-owner-ip")).toHaveText("127.0.0.1");
    await expect(v6Page.getByRole("button", { name: "Confirmar e continuar" })).toBeEnabled();
    await v6.close();
  });

  test("a wrong password refuses the transfer and nothing is sent", async ({ browser, adminPage }) => {
    const producer = await createUserAsAdmin(adminPage, { role: "producer" });
    const page = await signedInPage(browser, producer);
    const identifier = await fillTransfer(page);
    await page.getByRole("button", { name: "Confirmar e continuar" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Sua senha").fill("not-my-password");
    await dialog.getByRole("button", { name: "Autorizar e enviar" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Senha incorreta. A transferência não foi enviada.");
    await shoot(page, "transfer-wrong-password");
    await page.goto(await demoPath(page, "/transfers"));
    await expect(page.getByTestId(`transfer-row-${identifier}`)).toHaveCount(0);
    await page.context().close();
    await expectAudited(adminPage, { email: producer.email, action: "transfer.password_refused", target: identifier });
  });

  test("an operator has no transfer menu or page, and a replayed transfer action is refused", async ({ browser, adminPage }) => {
    // The admin's own transfer, to capture the raw server-action request.
    await useDemoAccount(adminPage);
    const identifier = await fillTransfer(adminPage);
    await adminPage.getByRole("button", { name: "Confirmar e continuar" }).click();
    await adminPage.getByRole("dialog").getByLabel("Sua senha").fill(E2E.admin.password);
    const requestPromise = adminPage.waitForRequest((req: Request) => req.method() === "POST" && !!req.headers()["next-action"]);
    await adminPage.getByRole("dialog").getByRole("button", { name: "Autorizar e enviar" }).click();
    const captured = await requestPromise;
    await expect(adminPage).toHaveURL(/\/transfers\/[0-9a-f-]{36}$/);

    const operator = await createUserAsAdmin(adminPage, { role: "operator" });
    const page = await signedInPage(browser, operator);
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Links de checkout" }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Transferências" })).toHaveCount(0);
    for (const path of ["/transfers", "/transfers/new"]) {
      await page.goto(await demoPath(page, path));
      await expect(page).toHaveURL(/\/forbidden$/);
    }

    const replayIdentifier = `tr-replay-${Date.now()}`;
    const replay = await page.context().request.post(captured.url(), {
      headers: {
        "next-action": captured.headers()["next-action"]!,
        "content-type": captured.headers()["content-type"] ?? "text/plain;charset=UTF-8",
        accept: "text/x-component",
      },
      data: (captured.postData() ?? "").replace(identifier, replayIdentifier).replace(E2E.admin.password, operator.password),
      maxRedirects: 0,
    });
    expect(await replay.text()).toContain("errors.forbidden");
    await adminPage.goto(await demoPath(adminPage, "/transfers"));
    await expect(adminPage.getByTestId(`transfer-row-${replayIdentifier}`)).toHaveCount(0);
    await page.context().close();
  });

  test("a daily limit set by an admin refuses the transfer that would exceed it", async ({ adminPage }) => {
    // A separate console account (same sandbox producer), so the limit does not touch other tests.
    const name = `Sandbox — limite ${Date.now()}`;
    await adminPage.goto("/accounts");
    await adminPage.getByRole("button", { name: "Nova conta" }).click();
    const dialog = adminPage.getByRole("dialog");
    await dialog.getByLabel("Nome").fill(name);
    await dialog.getByLabel("URL base").fill(E2E.sandboxUrl);
    await dialog.getByLabel("Chave pública").fill("pk_sandbox_demo");
    await dialog.getByLabel("Chave secreta").fill("sk_sandbox_demo");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(adminPage).toHaveURL(/\/accounts\/[0-9a-f-]{36}$/);
    const accountId = adminPage.url().split("/").pop()!;

    await adminPage.goto(`/${accountId}/transfers`);
    await expect(adminPage.getByTestId("daily-limit")).toHaveText("Sem limite diário");
    await adminPage.getByRole("button", { name: "Limite diário" }).click();
    await adminPage.getByRole("dialog").getByLabel("Limite por dia").fill("2000");
    await shoot(adminPage, "transfer-limit-dialog");
    await adminPage.getByRole("dialog").getByRole("button", { name: "Salvar" }).click();
    await expect(adminPage.getByTestId("daily-limit")).toHaveText("Limite diário: R$ 20,00");

    const send = async (amountDigits: string) => {
      await fillTransfer(adminPage, { amountDigits, key: "limite@example.com", ownerName: "Ana Lima", cpf: "52998224725" }, accountId);
      await adminPage.getByRole("button", { name: "Confirmar e continuar" }).click();
      await adminPage.getByRole("dialog").getByLabel("Sua senha").fill(E2E.admin.password);
      await adminPage.getByRole("dialog").getByRole("button", { name: "Autorizar e enviar" }).click();
    };
    await send("1500");
    await expect(adminPage).toHaveURL(/\/transfers\/[0-9a-f-]{36}$/);
    await send("1000");
    const refusal = adminPage.getByTestId("transfer-refusal");
    await expect(refusal).toContainText("Limite diário de transferências excedido. A transferência não foi enviada.");
    await expect(refusal).toContainText("disponível: R$ 5,00");
    await shoot(adminPage, "transfer-limit-refused");
  });
});
