import { expect, test } from "../fixtures/test";

const SECRETS = ["sk_sandbox_demo", "wht_sandbox_demo"];

test("the secret key and webhook token never reach the browser, only their last 4 characters", async ({ adminPage }) => {
  const bodies: string[] = [];
  adminPage.on("response", async (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (/text|json|javascript|x-component/.test(type)) bodies.push(await response.text().catch(() => ""));
  });
  await adminPage.goto("/accounts");
  await adminPage.getByRole("link", { name: "Sandbox — demo" }).click();
  await expect(adminPage.getByRole("heading", { name: "Sandbox — demo" })).toBeVisible();
  await expect(adminPage.getByText("•••• demo").first()).toBeVisible();
  await adminPage.getByRole("link", { name: "Início" }).click();
  await expect(adminPage.getByRole("heading", { name: /Olá/ })).toBeVisible();

  expect(bodies.length).toBeGreaterThan(3);
  for (const secret of SECRETS) {
    expect(
      bodies.some((body) => body.includes(secret)),
      secret,
    ).toBe(false);
  }
  const html = await adminPage.content();
  for (const secret of SECRETS) expect(html).not.toContain(secret);
});

test("replacing the webhook token shows only the new last 4 and is audited", async ({ adminPage }) => {
  await adminPage.goto("/accounts");
  await adminPage.getByRole("button", { name: "Nova conta" }).click();
  const dialog = adminPage.getByRole("dialog");
  await dialog.getByLabel("Nome").fill(`Loja ${Date.now()}`);
  await dialog.getByLabel("URL base").fill("https://gateway.example.com");
  await dialog.getByLabel("Chave pública").fill("pk_live_example");
  await dialog.getByLabel("Chave secreta").fill("sk_live_example_secret_ABCD");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(adminPage.getByText("•••• ABCD")).toBeVisible();
  await expect(adminPage.getByText("Não configurado")).toBeVisible();

  await adminPage.getByRole("button", { name: "Substituir o token de webhook" }).click();
  await adminPage.getByRole("dialog").getByLabel("Token de webhook").fill("wht_new_token_WXYZ");
  await adminPage.getByRole("dialog").getByRole("button", { name: "Salvar" }).click();
  await expect(adminPage.getByText("•••• WXYZ")).toBeVisible();
  expect(await adminPage.content()).not.toContain("wht_new_token_WXYZ");
});

test("a bad base URL is refused at the field and nothing typed is lost", async ({ adminPage }) => {
  await adminPage.goto("/accounts");
  await adminPage.getByRole("button", { name: "Nova conta" }).click();
  const dialog = adminPage.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("Sem URL");
  await dialog.getByLabel("URL base").fill("gateway sem esquema");
  await dialog.getByLabel("Chave pública").fill("pk_x");
  await dialog.getByLabel("Chave secreta").fill("sk_x_1234");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("URL inválida (use http:// ou https://)")).toBeVisible();
  await expect(dialog.getByLabel("Nome")).toHaveValue("Sem URL");
  await expect(dialog.getByLabel("Chave pública")).toHaveValue("pk_x");
});
