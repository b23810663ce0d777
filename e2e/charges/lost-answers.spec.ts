import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import {
  CUSTOMER,
  expectQrOf,
  expectResult,
  fillCustomer,
  openChargeForm,
  sandboxControl,
  sandboxLookup,
  submit,
} from "../fixtures/charges";
import { demoPath } from "../fixtures/sandbox";

/** The next server action the page posts: `reach` lets it through to the server first, then the browser never gets its answer. */
async function loseNextActionAnswer(page: Page, options: { reach: boolean }) {
  let armed = true;
  await page.route("**/*", async (route) => {
    const request = route.request();
    if (!armed || request.method() !== "POST" || !request.headers()["next-action"]) return route.fallback();
    armed = false;
    if (options.reach) await route.fetch();
    await route.abort("connectionreset");
  });
}

test.describe("answers that never arrive", () => {
  test("the server's answer is lost after it created the charge: the form says the outcome is unknown, keeps everything, and a second click under the same identifier creates nothing new", async ({
    adminPage: page,
  }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("21,50");
    await fillCustomer(page);
    await loseNextActionAnswer(page, { reach: true });
    await submit(page);

    const message = page.getByTestId("charge-no-answer");
    await expect(message).toBeVisible();
    await expect(message).toContainText("Sem resposta do servidor");
    await expect(message).toContainText(`não sabemos se a cobrança foi criada. Confira em Transações pelo identificador ${identifier}`);
    // It never says the charge failed.
    await expect(message).not.toContainText(/falhou|erro|recusad/i);
    // Everything typed is still there, and the identifier cannot be swapped for another.
    await expect(page.getByLabel("Valor (R$)")).toHaveValue("21,50");
    await expect(page.getByLabel("Nome completo")).toHaveValue(CUSTOMER.name);
    await expect(page.getByLabel("Identificador")).toHaveValue(identifier);
    await expect(page.getByRole("button", { name: "Gerar outro" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Criar cobrança" })).toBeEnabled();
    // The first submission did reach the gateway.
    const created = await sandboxLookup(identifier);
    expect(created?.clientIdentifier).toBe(identifier);

    // A second click: the same identifier, recognised by the ledger; the result is that one charge.
    await submit(page);
    await expectResult(page);
    await expect(page.getByTestId("result-identifier")).toHaveText(identifier);
    await expect(page.getByTestId("result-transaction-id")).toHaveText(String(created?.id));
    expect((await sandboxLookup(identifier))?.id).toBe(created?.id);
    await page.goto(await demoPath(page, `/transactions?q=${identifier}`));
    await expect(page.getByTestId("transaction-row")).toHaveCount(1);
  });

  test("the request never reached the server: the same message, and the second click creates the charge once", async ({
    adminPage: page,
  }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("13,00");
    await fillCustomer(page);
    await loseNextActionAnswer(page, { reach: false });
    await submit(page);
    await expect(page.getByTestId("charge-no-answer")).toContainText("Sem resposta do servidor");
    expect(await sandboxLookup(identifier)).toBeNull();
    await submit(page);
    await expectResult(page);
    await expect(page.getByTestId("result-identifier")).toHaveText(identifier);
    expect((await sandboxLookup(identifier))?.amount).toBe(13);
  });

  test("a Pix charge whose creation answer was lost and that a lookup settled shows its QR code and copy-and-paste code from the lookup record", async ({
    adminPage: page,
  }) => {
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("64,00");
    await fillCustomer(page);
    await sandboxControl().fault({ dropConnection: true, times: 1, identifier });
    await submit(page);
    await expect(page.getByTestId("charge-unknown")).toContainText("Não sabemos se a cobrança foi criada");
    // The reconciler's lookup settles it; the page moves to the result by itself.
    await expectResult(page, 20_000);
    const record = await sandboxLookup(identifier);
    const code = String((record?.pixInformation as { qrCode?: string } | null)?.qrCode ?? "");
    expect(code).not.toBe("");
    const result = page.getByTestId("pix-result");
    await expect(result).toHaveAttribute("data-source", "lookup");
    await expect(result).toContainText("estes dados de pagamento vêm da consulta ao gateway");
    await expect(page.getByTestId("pix-code")).toHaveAttribute("data-value", code);
    await expectQrOf(page, code);
    await expect(page.getByTestId("gateway-answer")).toHaveCount(0);
  });
});
