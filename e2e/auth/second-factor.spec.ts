import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import type { Page } from "@playwright/test";
import { createUserAsAdmin, expect, newClientContext, test } from "../fixtures/test";
import { paidChargeAtSandbox, useDemoAccount } from "../payouts/helpers";
import { demoPath } from "../fixtures/sandbox";

/** The authenticator app: codes from the key the page shows, each time step used once. */
function authenticator(keyText: string) {
  const key = decodeBase32IgnorePadding(keyText.replace(/\s+/g, ""));
  let lastStep = 0;
  return {
    async code(): Promise<string> {
      // The server accepts one step of drift: the step after the last used one is good once the
      // clock has reached the last used step (a fast test waits for it, as a person would).
      while (lastStep > Math.floor(Date.now() / 30_000)) await new Promise((resolve) => setTimeout(resolve, 250));
      const step = Math.max(Math.floor(Date.now() / 30_000), lastStep + 1);
      lastStep = step;
      return generateHOTP(key, BigInt(step), 6);
    },
  };
}

async function signInForm(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

test.describe("two-step verification", () => {
  test("enrol, sign out, password alone is not enough, the code signs in; a replayed cookie is refused; refunds ask for the code", async ({
    browser,
    adminPage,
  }) => {
    // Three codes from three different time steps: the test may wait up to a minute for the clock.
    test.setTimeout(150_000);
    const user = await createUserAsAdmin(adminPage, { role: "producer" });
    const context = await newClientContext(browser);
    const page = await context.newPage();
    await signInForm(page, user.email, user.password);
    await expect(page.getByRole("heading", { name: new RegExp(`Olá, ${user.name}`) })).toBeVisible();

    await page.goto("/profile");
    await page.getByRole("link", { name: "Verificação em duas etapas" }).click();
    await expect(page.getByTestId("second-factor-state")).toHaveText("Desativada");
    await page.getByTestId("enable-second-factor").click();
    await expect(page.getByRole("img", { name: "QR Code" })).toBeVisible();
    const app = authenticator((await page.getByTestId("totp-key").textContent()) ?? "");
    await page.getByLabel("Código de 6 dígitos").fill("000000");
    await page.getByRole("button", { name: "Confirmar e ativar" }).click();
    await expect(page.getByText("Código incorreto ou já usado")).toBeVisible();
    await page.getByLabel("Código de 6 dígitos").fill(await app.code());
    await page.getByRole("button", { name: "Confirmar e ativar" }).click();
    const codes = page.getByTestId("recovery-codes").getByRole("listitem");
    await expect(codes).toHaveCount(10);
    const recoveryCode = (await codes.first().textContent())!.trim();
    await page.getByTestId("recovery-codes-done").click();
    await expect(page.getByTestId("second-factor-state")).toContainText("Ativada desde");
    await expect(page.getByTestId("recovery-left")).toHaveText("10 códigos de recuperação restantes");

    // Sign out; the cookie the browser had is kept aside and replayed afterwards.
    const stolen = await context.storageState();
    await page
      .getByRole("button", { name: new RegExp(user.name) })
      .last()
      .click();
    await page.getByRole("menuitem", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    const replay = await browser.newContext({ storageState: stolen });
    const replayPage = await replay.newPage();
    await replayPage.goto(`${new URL(page.url()).origin}/profile`);
    await expect(replayPage).toHaveURL(/\/sign-in$/);
    await replay.close();

    // The password alone leads to the code step, not into the console.
    await signInForm(page, user.email, user.password);
    await expect(page.getByText("Digite o código de 6 dígitos do seu aplicativo autenticador")).toBeVisible();
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/sign-in$/);

    await signInForm(page, user.email, user.password);
    await page.getByLabel("Código", { exact: true }).fill("000000");
    await page.getByRole("button", { name: "Verificar e entrar" }).click();
    await expect(page.getByText("Código incorreto ou já usado. Use o código atual do aplicativo.")).toBeVisible();
    await page.getByLabel("Código", { exact: true }).fill(await app.code());
    await page.getByRole("button", { name: "Verificar e entrar" }).click();
    await expect(page.getByRole("heading", { name: new RegExp(`Olá, ${user.name}`) })).toBeVisible();

    // A recovery code works once, in place of the app's code.
    await page
      .getByRole("button", { name: new RegExp(user.name) })
      .last()
      .click();
    await page.getByRole("menuitem", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await signInForm(page, user.email, user.password);
    await page.getByLabel("Código", { exact: true }).fill(recoveryCode);
    await page.getByRole("button", { name: "Verificar e entrar" }).click();
    await expect(page.getByRole("heading", { name: new RegExp(`Olá, ${user.name}`) })).toBeVisible();
    await page.goto("/profile/security");
    await expect(page.getByTestId("recovery-left")).toHaveText("9 códigos de recuperação restantes");

    // Money out asks for the code again: a refund request without it stays on the form.
    await useDemoAccount(page);
    const transactionId = await paidChargeAtSandbox(page, 15);
    await page.goto(await demoPath(page, "/refunds/new"));
    await page.getByLabel("ID da transação no gateway").fill(transactionId);
    await page.getByRole("button", { name: "Enviar pedido" }).click();
    await expect(page.getByText("Campo obrigatório")).toBeVisible();
    await expect(page).toHaveURL(/\/refunds\/new$/);
    await page.getByLabel("Código do aplicativo").fill(await app.code());
    await page.getByRole("button", { name: "Enviar pedido" }).click();
    await expect(page).toHaveURL(/\/refunds$/);
    await expect(page.getByTestId(`refund-row-${transactionId}`)).toBeVisible();
    await context.close();
  });
});
