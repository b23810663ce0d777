import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures/test";
import { E2E } from "../fixtures/env";
import { expectAudited, shoot, useDemoAccount } from "./helpers";
import { demoPath, gatewayPost } from "../fixtures/sandbox";

async function fillCheckout(page: import("@playwright/test").Page, productName: string, accountId?: string) {
  await page.goto(accountId ? `/${accountId}/checkout-links/new` : await demoPath(page, "/checkout-links/new"));
  await page.getByLabel("Nome do produto").fill(productName);
  await page.getByLabel("Nome da oferta").fill("Oferta de lançamento");
  await page.getByLabel("Preço").fill("9700");
}

test.describe("checkout links", () => {
  test("a link created for demo shows its URL, QR code and share links, and is listed", async ({ adminPage: page }) => {
    await useDemoAccount(page);
    const productName = `Curso ${randomUUID().slice(0, 6)}`;
    await fillCheckout(page, productName);
    await page.getByLabel("Fotos (URLs) 1").fill("https://images.example.com/curso.png");
    await page.getByRole("switch", { name: "Personalizar as cores" }).click();
    const primary = page.getByRole("textbox", { name: "Principal", exact: true });
    await primary.fill("#7c3aed");
    const preview = page.getByTestId("checkout-preview");
    await expect(preview).toContainText(productName);
    await expect(preview).toContainText("R$ 97,00");
    await expect(preview.getByText("Pagar")).toHaveCSS("background-color", "rgb(124, 58, 237)");
    await page.getByRole("switch", { name: "Preencher os dados do comprador" }).click();
    await page.getByLabel("E-mail", { exact: true }).fill("comprador@example.com");
    await shoot(page, "checkout-form");
    await page.getByRole("button", { name: "Criar link" }).click();

    await expect(page).toHaveURL(/\/checkout-links\/[0-9a-f-]{36}$/);
    const url = await page.getByTestId("checkout-url").inputValue();
    expect(url).toMatch(/\/checkout\//);
    await expect(page.getByRole("img", { name: "QR code do checkout" })).toBeVisible();
    await expect(page.getByRole("link", { name: "WhatsApp" })).toHaveAttribute(
      "href",
      new RegExp(`^https://wa\\.me/\\?text=.*${encodeURIComponent(url).slice(0, 20)}`),
    );
    await expect(page.getByRole("link", { name: "E-mail" })).toHaveAttribute("href", /^mailto:/);
    await shoot(page, "checkout-result");

    const hosted = await page.request.get(url);
    expect(hosted.ok()).toBe(true);
    const linkPage = page.url();
    await expect(page.getByTestId("checkout-link-sales").getByTestId("checkout-sales-count")).toHaveText("0");

    // A buyer pays on the hosted checkout: the gateway's notification names the page visited, and the link counts the sale.
    const sale = await page.request.post(url, {
      form: { visitedUrl: `${url}?utm_source=e2e`, name: "Ana Lima", email: "ana@example.com", document: "123.456.789-09", method: "PIX" },
    });
    expect(sale.ok(), await sale.text()).toBe(true);
    await expect(async () => {
      await page.goto(linkPage);
      await expect(page.getByTestId("checkout-link-sales").getByTestId("checkout-sales-count")).toHaveText("1", { timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    await expect(page.getByTestId("checkout-link-sales").getByTestId("checkout-sales-revenue")).toHaveText("R$ 97,00");
    await expect(page.getByTestId("checkout-sale")).toContainText("Ana Lima");

    await page.goto(await demoPath(page, "/checkout-links"));
    await expect(page.getByRole("link", { name: productName })).toBeVisible();
    const listed = page.getByTestId(/^checkout-row-/).filter({ hasText: productName });
    await expect(listed.getByTestId("checkout-sales-count")).toContainText("1");
    await expect(listed.getByTestId("checkout-sales-revenue")).toHaveText("R$ 97,00");
    await shoot(page, "checkout-list");
    const externalId = await page
      .getByTestId(/^checkout-row-/)
      .filter({ hasText: productName })
      .getAttribute("data-testid");
    await expectAudited(page, {
      email: "admin@e2e.test",
      action: "checkout_link.created",
      target: externalId!.replace("checkout-row-", ""),
    });
  });

  test("a checkout made outside the console that sold is listed, learned from the notifications", async ({ adminPage: page }) => {
    await useDemoAccount(page);
    const productName = `Ebook ${randomUUID().slice(0, 6)}`;
    // The producer's own platform makes the checkout at the gateway, as the demo does.
    const { checkoutUrl } = await gatewayPost<{ checkoutUrl: string }>(page.request, "/checkout", {
      product: {
        externalId: `ebook-${randomUUID().slice(0, 6)}`,
        name: productName,
        offer: { name: "Oferta", price: 45.5, offerType: "ONE_TIME", currency: "BRL", lang: "pt-BR" },
      },
      settings: { paymentMethods: ["PIX"], acceptedDocs: ["CPF"] },
    });
    const sale = await page.request.post(checkoutUrl, {
      form: {
        visitedUrl: `${checkoutUrl}?utm_source=site`,
        name: "Caio Prado",
        email: "caio@example.com",
        document: "123.456.789-09",
        method: "PIX",
      },
    });
    expect(sale.ok(), await sale.text()).toBe(true);
    const learned = page.locator(`[data-testid="checkout-row-learned"][data-page="${checkoutUrl}"]`);
    await expect(async () => {
      await page.goto(await demoPath(page, "/checkout-links"));
      await expect(learned).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    await expect(learned).toContainText("Aprendido pelas notificações");
    await expect(learned).toContainText(productName);
    await expect(learned.getByTestId("checkout-sales-count")).toContainText("1");
    await expect(learned.getByTestId("checkout-sales-revenue")).toHaveText("R$ 45,50");
    await expect(page.getByText("Nenhum link criado ainda")).toHaveCount(0);
  });

  test("the company producer's 403 explains what is missing", async ({ adminPage: page }) => {
    const name = `Sandbox — company ${randomUUID().slice(0, 6)}`;
    await page.goto("/accounts");
    await page.getByRole("button", { name: "Nova conta" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Nome").fill(name);
    await dialog.getByLabel("URL base").fill(E2E.sandboxUrl);
    await dialog.getByLabel("Chave pública").fill("pk_sandbox_company");
    await dialog.getByLabel("Chave secreta").fill("sk_sandbox_company");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByRole("heading", { name })).toBeVisible();
    const accountId = page.url().split("/").pop()!;

    await fillCheckout(page, "Produto da empresa", accountId);
    await expect(page.getByTestId("account-switcher").first()).toContainText(name);
    await page.getByRole("button", { name: "Criar link" }).click();
    const error = page.getByTestId("checkout-error");
    await expect(error).toContainText("O gateway não permite criar checkout para esta conta");
    await expect(error).toContainText("permissão PRODUCER_CHECKOUT");
    await expect(error).toContainText("configuração da empresa");
    await expect(error).toContainText("falta a este produtor a permissão PRODUCER_CHECKOUT");
    await expect(page.getByLabel("Nome do produto")).toHaveValue("Produto da empresa");
    await shoot(page, "checkout-forbidden");
  });
});
