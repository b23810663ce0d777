import { randomUUID } from "node:crypto";
import { E2E } from "../fixtures/env";
import { createUserAsAdmin, expect, test } from "../fixtures/test";

test.describe("sign-in", () => {
  test("the admin signs in, sees the shell in Portuguese and signs out", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByText("Entrar no console")).toBeVisible();
    await page.getByLabel("E-mail").fill(E2E.admin.email);
    await page.getByLabel("Senha").fill(E2E.admin.password);
    await page.getByRole("button", { name: "Entrar" }).click();

    await expect(page.getByRole("heading", { name: /Olá, Admin/ })).toBeVisible();
    const nav = page.getByRole("navigation").first();
    await expect(nav.getByRole("link", { name: "Início" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Usuários" })).toBeVisible();

    await page.getByRole("button", { name: /Admin/ }).last().click();
    await page.getByRole("menuitem", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/accounts");
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test("a wrong password is refused with a message that does not reveal the e-mail", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("E-mail").fill(E2E.admin.email);
    await page.getByLabel("Senha").fill("definitely-not-the-password");
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page.getByTestId("sign-in-error")).toHaveText("E-mail ou senha incorretos.");

    await page.getByLabel("E-mail").fill(`nobody-${randomUUID()}@e2e.test`);
    await page.getByLabel("Senha").fill("definitely-not-the-password");
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page.getByTestId("sign-in-error")).toHaveText("E-mail ou senha incorretos.");
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test("repeated failures throttle the e-mail, even with the right password, and unknown e-mails alike", async ({ page, adminPage }) => {
    const user = await createUserAsAdmin(adminPage, { role: "viewer" });
    await page.goto("/sign-in");
    for (let attempt = 0; attempt < 5; attempt++) {
      await page.getByLabel("E-mail").fill(user.email);
      await page.getByLabel("Senha").fill(`wrong-password-${attempt}`);
      await page.getByRole("button", { name: "Entrar" }).click();
      await expect(page.getByTestId("sign-in-error")).toHaveText("E-mail ou senha incorretos.");
    }
    await page.getByLabel("E-mail").fill(user.email);
    await page.getByLabel("Senha").fill(user.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page.getByTestId("sign-in-error")).toHaveText("Muitas tentativas. Tente de novo em 1 minuto.");

    const unknown = `ghost-${randomUUID()}@e2e.test`;
    for (let attempt = 0; attempt < 6; attempt++) {
      await page.getByLabel("E-mail").fill(unknown);
      await page.getByLabel("Senha").fill(`wrong-password-${attempt}`);
      await page.getByRole("button", { name: "Entrar" }).click();
      await expect(page.getByTestId("sign-in-error")).toBeVisible();
    }
    await expect(page.getByTestId("sign-in-error")).toHaveText("Muitas tentativas. Tente de novo em 1 minuto.");
  });
});
