import { createUserAsAdmin, expect, signedInPage, signInWithApi, newClientContext, switchToEnglish, test } from "../fixtures/test";

test.describe("user administration", () => {
  test("the admin creates an operator and a viewer with their roles", async ({ adminPage }) => {
    const operator = await createUserAsAdmin(adminPage, { role: "operator" });
    const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
    await expect(adminPage.getByTestId(`user-row-${operator.email}`).getByRole("combobox")).toHaveText("Operador");
    await expect(adminPage.getByTestId(`user-row-${viewer.email}`).getByRole("combobox")).toHaveText("Leitura");
    await expect(adminPage.getByTestId(`user-row-${viewer.email}`)).toContainText("Sandbox — demo");
  });

  test("changing a role ends the user's sessions; signed in again, the new role applies", async ({ browser, adminPage }) => {
    const user = await createUserAsAdmin(adminPage, { role: "viewer" });
    const page = await signedInPage(browser, user);
    await page.goto("/admin/users");
    await expect(page).toHaveURL(/\/forbidden$/);

    const row = adminPage.getByTestId(`user-row-${user.email}`);
    await row.getByRole("combobox").click();
    await adminPage.getByRole("option", { name: "Administrador" }).click();
    await expect(adminPage.getByText("Perfil alterado")).toBeVisible();

    await page.goto("/admin/users");
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByLabel("E-mail").fill(user.email);
    await page.getByLabel("Senha").fill(user.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page.getByRole("heading", { name: new RegExp(`Olá, ${user.name}`) })).toBeVisible();
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { name: "Usuários" })).toBeVisible();
    await page.context().close();
  });

  test("a deactivated user is signed out at once and can no longer sign in", async ({ browser, adminPage }) => {
    const user = await createUserAsAdmin(adminPage, { role: "producer" });
    const page = await signedInPage(browser, user);
    await page.goto("/accounts");
    await expect(page.getByRole("link", { name: "Sandbox — demo" })).toBeVisible();

    const row = adminPage.getByTestId(`user-row-${user.email}`);
    adminPage.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: /Ações/ }).click();
    await adminPage.getByRole("menuitem", { name: "Desativar" }).click();
    await expect(row.getByText("Desativado")).toBeVisible();

    await page.goto("/accounts");
    await expect(page).toHaveURL(/\/sign-in$/);

    const fresh = await newClientContext(browser);
    const response = await signInWithApi(fresh.request, user);
    expect(await response.text()).toContain("invalid_credentials");
    await fresh.close();
    await page.context().close();
  });

  test("switching the language to English changes the shell", async ({ browser, adminPage }) => {
    const user = await createUserAsAdmin(adminPage, { role: "operator" });
    const page = await signedInPage(browser, user);
    await switchToEnglish(page, user.name);
    await expect(page.getByRole("heading", { name: new RegExp(`Hello, ${user.name}`) })).toBeVisible();
    await page.context().close();
  });
});
