import type { Page, Request } from "@playwright/test";
import { createUserAsAdmin, expect, newClientContext, signedInPage, test } from "../fixtures/test";

/** Submits the create-user form as the admin and captures the raw server-action request it sends. */
async function captureCreateUserAction(adminPage: Page, email: string) {
  await adminPage.goto("/admin/users");
  await adminPage.getByRole("button", { name: "Novo usuário" }).click();
  const dialog = adminPage.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("Captured");
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByLabel("Senha inicial").fill("captured-password-123");
  const requestPromise = adminPage.waitForRequest((req: Request) => req.method() === "POST" && !!req.headers()["next-action"]);
  await dialog.getByRole("button", { name: "Salvar" }).click();
  const request = await requestPromise;
  await expect(dialog).toBeHidden();
  return { url: request.url(), actionId: request.headers()["next-action"], body: request.postData() ?? "" };
}

test.describe("roles", () => {
  test("a viewer sees no admin section and is refused the admin page", async ({ browser, adminPage }) => {
    const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
    const page = await signedInPage(browser, viewer);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: new RegExp(`Olá, ${viewer.name}`) })).toBeVisible();
    await expect(page.getByRole("link", { name: "Usuários" })).toHaveCount(0);
    await page.goto("/admin/users");
    await expect(page).toHaveURL(/\/forbidden$/);
    await expect(page.getByRole("heading", { name: "Acesso negado" })).toBeVisible();

    await page.goto("/accounts");
    await expect(page.getByRole("link", { name: "Sandbox — demo" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Nova conta" })).toHaveCount(0);
    await page.getByRole("link", { name: "Sandbox — demo" }).click();
    await expect(page.getByRole("button", { name: "Substituir a chave secreta" })).toHaveCount(0);
    await page.context().close();
  });

  test("an operator can open the account but cannot manage keys or users", async ({ browser, adminPage }) => {
    const operator = await createUserAsAdmin(adminPage, { role: "operator" });
    const page = await signedInPage(browser, operator);
    await page.goto("/accounts");
    await page.getByRole("link", { name: "Sandbox — demo" }).click();
    await expect(page.getByText("•••• demo").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Substituir a chave secreta" })).toHaveCount(0);
    await page.goto("/admin/users");
    await expect(page).toHaveURL(/\/forbidden$/);
    await page.context().close();
  });

  test("a raw server-action POST is refused without a session and with a viewer's session", async ({ browser, adminPage }) => {
    const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
    const captured = await captureCreateUserAction(adminPage, `captured-${Date.now()}@e2e.test`);
    const replayed = (body: string) =>
      body.replace(/captured-\d+@e2e\.test/, `intruder-${Date.now()}-${Math.random().toString(36).slice(2)}@e2e.test`);

    const anonymous = await newClientContext(browser);
    const headers = { "next-action": captured.actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" };
    const noCookie = await anonymous.request.post(captured.url, { headers, data: replayed(captured.body), maxRedirects: 0 });
    expect(noCookie.status(), "the proxy sends cookie-less requests to sign in").toBe(307);
    // A forged cookie gets past the proxy's convenience redirect; the action itself must refuse.
    const forged = await anonymous.request.post(captured.url, {
      headers: { ...headers, cookie: "__Secure-next-auth.session-token=forged; next-auth.session-token=forged" },
      data: replayed(captured.body),
      maxRedirects: 0,
    });
    expect(await forged.text()).toContain("errors.unauthenticated");

    const viewerPage = await signedInPage(browser, viewer);
    const asViewer = await viewerPage.context().request.post(captured.url, {
      headers: { "next-action": captured.actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
      data: replayed(captured.body),
      maxRedirects: 0,
    });
    expect(await asViewer.text()).toContain("errors.forbidden");

    await adminPage.goto("/admin/users");
    await expect(adminPage.getByText(/intruder-/)).toHaveCount(0);
    await anonymous.close();
    await viewerPage.context().close();
  });

  test("a spoofed x-middleware-subrequest header reaches nothing protected", async ({ browser }) => {
    const context = await newClientContext(browser);
    for (const value of [
      "middleware",
      "proxy",
      "middleware:middleware:middleware:middleware:middleware",
      "proxy:proxy:proxy:proxy:proxy",
      "src/middleware:src/middleware:src/middleware:src/middleware:src/middleware",
    ]) {
      for (const path of ["/", "/admin/users", "/accounts"]) {
        const response = await context.request.get(path, { headers: { "x-middleware-subrequest": value }, maxRedirects: 0 });
        expect([302, 303, 307, 308], `${path} with ${value}`).toContain(response.status());
        expect(response.headers()["location"]).toMatch(/\/sign-in/);
      }
    }
    await context.close();
  });
});
