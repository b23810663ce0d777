import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";
import { sandboxControl } from "../fixtures/charges";
import { demoAccountId } from "../fixtures/sandbox";
import { centsIn, createPixCharge, recoveryRow, seedPastCharges, setPixDelay, shotsDir } from "./recovery-helpers";

const TEMPLATE = "Oi {nome}! Falta pagar {valor} de {produto}: {link}";

test.describe("sales recovery", () => {
  test("an unpaid Pix joins the list after the delay, its WhatsApp link carries the message, and once paid after a contact it counts as recovered", async ({
    adminPage: page,
  }) => {
    const accountId = await demoAccountId(page);
    const recovery = `/${accountId}/sales/recovery`;
    const overview = `/${accountId}/sales`;

    // The producer shortens the Pix delay to seconds and writes the template.
    await page.goto(recovery);
    await setPixDelay(page, "2", "segundos");
    await expect(page.getByTestId("recovery-scope")).toContainText("Pix sem pagamento há pelo menos 2 segundos");
    await page.getByTestId("recovery-settings").click();
    const settings = page.getByRole("dialog", { name: "Configurar recuperação" });
    await expect(settings.getByTestId("recovery-pixDelay").getByLabel("Prazo")).toHaveValue("2");
    await settings.getByLabel("Modelo da mensagem").fill(TEMPLATE);
    await expect(settings.getByTestId("recovery-template-preview")).toHaveText(
      "Oi Maria! Falta pagar R$ 197,00 de Curso de fotografia: https://pagamento.exemplo/abc123",
    );
    await settings.getByRole("button", { name: "Salvar" }).click();
    await expect(settings).toBeHidden();
    await expect(page.getByTestId("recovery-scope")).toContainText("Pix sem pagamento há pelo menos 2 segundos");

    // What the overview says before: other tests may add to it, this one adds exactly its own sale.
    await page.goto(overview);
    const recoveredBefore = centsIn(await page.getByTestId("sales-figure-recovered-value").textContent());

    const product = `Mentoria ${Date.now() % 100_000}`;
    const contacted = await createPixCharge(page, {
      amount: "87,65",
      product,
      customer: { name: "Maria Souza", phone: "11987654321", email: "maria.souza@example.com" },
    });
    const ignored = await createPixCharge(page, {
      amount: "12,00",
      customer: { name: "João Lima", phone: "21976543210", email: "joao.lima@example.com" },
    });
    expect(contacted.orderUrl, "the charge's payment page").toBeTruthy();

    // Both join the list once the delay has passed.
    await page.goto(recovery);
    await expect(async () => {
      await page.reload();
      await expect(recoveryRow(page, contacted.identifier)).toBeVisible({ timeout: 1_000 });
      await expect(recoveryRow(page, ignored.identifier)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    const row = recoveryRow(page, contacted.identifier);
    await expect(row).toContainText("Maria Souza");
    await expect(row.getByTestId("recovery-contact")).toContainText("maria.souza@example.com");
    await expect(row.getByTestId("recovery-amount")).toHaveText("R$ 87,65");
    await expect(row).toContainText(product);
    await expect(row).toContainText(/há \d+ (s|min)/);
    await expect(row.getByTestId("recovery-origin")).toHaveText("direto / desconhecida");

    // The message, filled in, and the WhatsApp link carrying it (edited text included) to the customer's phone.
    await row.getByTestId("recovery-message").click();
    const dialog = page.getByRole("dialog", { name: "Mensagem para Maria Souza" });
    const text = dialog.getByTestId("recovery-message-text");
    const message = `Oi Maria! Falta pagar R$ 87,65 de ${product}: ${contacted.orderUrl}`;
    await expect(text).toHaveValue(message);
    const whatsapp = dialog.getByTestId("recovery-whatsapp");
    await expect(whatsapp).toHaveAttribute("href", `https://wa.me/5511987654321?text=${encodeURIComponent(message)}`);
    await expect(whatsapp).toHaveAttribute("target", "_blank");
    await expect(whatsapp).toHaveAttribute("rel", /noopener/);
    await text.fill(`${message} Até já!`);
    await expect(whatsapp).toHaveAttribute("href", `https://wa.me/5511987654321?text=${encodeURIComponent(`${message} Até já!`)}`);
    await expect(dialog.getByTestId("recovery-email")).toHaveAttribute("href", /^mailto:maria\.souza%40example\.com\?subject=/);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // "Nova cobrança" starts a Pix charge from this one.
    await expect(row.getByTestId("recovery-new-charge")).toHaveAttribute(
      "href",
      `/${accountId}/charges/new/pix?from=${await row.getAttribute("data-ledger-id")}`,
    );

    // Marked as contacted, with a note: it leaves the list.
    await row.getByTestId("recovery-mark").click();
    const mark = page.getByRole("dialog", { name: "Marcar a cobrança de Maria Souza" });
    await expect(mark.getByRole("radio", { name: /Contatado/ })).toBeChecked();
    await mark.getByLabel("Observação (opcional)").fill("Chamou no WhatsApp, paga hoje");
    await mark.getByRole("button", { name: "Marcar", exact: true }).click();
    await expect(mark).toBeHidden();
    await expect(row).toHaveCount(0);
    await page.reload();
    await expect(recoveryRow(page, contacted.identifier)).toHaveCount(0);
    await expect(recoveryRow(page, ignored.identifier)).toBeVisible();

    // The sandbox pays both: the unmarked one leaves the list once the payment is confirmed.
    await sandboxControl().event(contacted.transactionId, "pay");
    await sandboxControl().event(ignored.transactionId, "pay");
    await expect(async () => {
      await page.reload();
      await expect(recoveryRow(page, ignored.identifier)).toHaveCount(0, { timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    await page.goto(contacted.chargeUrl);
    await expect(page.getByTestId("gateway-status")).toHaveText("Pago", { timeout: 15_000 });

    // Paid after a contact: the overview's recovered revenue grows by exactly that sale (not the other).
    await expect(async () => {
      await page.goto(overview);
      const after = centsIn(await page.getByTestId("sales-figure-recovered-value").textContent());
      expect(after - recoveredBefore).toBe(8765);
    }).toPass({ timeout: 20_000, intervals: [1_000] });
  });

  test("opening WhatsApp with the message records the contact: the row leaves the list, audited with its channel", async ({
    adminPage: page,
  }) => {
    const accountId = await demoAccountId(page);
    // Created an hour ago: on the list whatever delay the other test has set.
    const [identifier] = await seedPastCharges(page.request, accountId, [
      { method: "PIX", amount: 61, name: "Rita Alves", phone: "21999998888", product: "Aula de violão", ageMinutes: 60 },
    ]);
    await page.goto(`/${accountId}/sales/recovery`);
    await expect(async () => {
      await page.reload();
      await expect(recoveryRow(page, identifier)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    const row = recoveryRow(page, identifier);
    const ledgerId = await row.getAttribute("data-ledger-id");
    await row.getByTestId("recovery-message").click();
    const dialog = page.getByRole("dialog", { name: "Mensagem para Rita Alves" });
    const whatsapp = page.context().waitForEvent("page");
    await dialog.getByTestId("recovery-whatsapp").click();
    await (await whatsapp).close();
    await expect(page.getByText("WhatsApp aberto: contato registrado.")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(recoveryRow(page, identifier)).toHaveCount(0);
    expect(ledgerId).toBeTruthy();
    await page.goto(`/admin/audit?${new URLSearchParams({ action: "sales.recovery_contacted", email: "admin@e2e.test" })}`);
    const audit = page.getByTestId("audit-row").filter({ hasText: ledgerId! }).first();
    await expect(audit).toContainText("whatsapp");
  });

  test("a reader sees the list without customers' contacts or actions", async ({ adminPage: page, browser }) => {
    const accountId = await demoAccountId(page);
    const viewer = await createUserAsAdmin(page, { role: "viewer" });
    // Created an hour ago: on the list whatever delay the other test has set.
    const [identifier] = await seedPastCharges(page.request, accountId, [
      { method: "PIX", amount: 45, name: "Ana Reis", phone: "31988887777", product: "Aula avulsa", ageMinutes: 60 },
    ]);
    const reader = await signedInPage(browser, viewer);
    try {
      await reader.goto(`/${accountId}/sales/recovery`);
      await expect(reader.getByTestId("recovery-settings")).toHaveCount(0);
      await expect(async () => {
        await reader.reload();
        await expect(recoveryRow(reader, identifier)).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 30_000, intervals: [1_000] });
      const row = recoveryRow(reader, identifier);
      await expect(row).toContainText("Ana Reis");
      await expect(row.getByTestId("recovery-contact")).toHaveCount(0);
      await expect(row.getByTestId("recovery-message")).toHaveCount(0);
      await expect(row.getByTestId("recovery-mark")).toHaveCount(0);
      expect(await reader.content()).not.toContain("ana@example.com");
      expect(await reader.content()).not.toContain("31988887777");
      await expect(reader.getByText("Os contatos dos clientes e as ações ficam com quem atende clientes")).toBeVisible();
    } finally {
      await reader.context().close();
    }
  });

  test("screenshots of the list with a few rows (RECOVERY_SHOTS_DIR)", async ({ adminPage: page }) => {
    test.skip(!shotsDir, "set RECOVERY_SHOTS_DIR to take them");
    const accountId = await demoAccountId(page);
    await seedPastCharges(page.request, accountId, [
      { method: "PIX", amount: 297, name: "Carla Mendes", phone: "11991234567", product: "Curso de confeitaria", ageMinutes: 42 },
      {
        method: "PIX",
        amount: 1490.9,
        name: "Roberto Albuquerque de Oliveira Santos",
        phone: "1133334444",
        product: "Mentoria anual",
        ageMinutes: 190,
      },
      {
        method: "BOLETO",
        amount: 89.9,
        name: "Fernanda Lima",
        phone: "21987651234",
        product: "E-book de receitas",
        ageMinutes: 6 * 24 * 60,
      },
      { method: "PIX", amount: 49, name: "Lucas Pereira", phone: "48999887766", ageMinutes: 3 * 24 * 60 },
    ]);
    await page.goto(`/${accountId}/sales/recovery`);
    await expect(page.getByTestId("recovery-row").first()).toBeVisible();
    for (const [label, width] of [
      ["desktop", 1360],
      ["mobile", 390],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${shotsDir}/recovery-${label}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.getByTestId("recovery-message").first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shotsDir}/recovery-message.png` });
    await page.keyboard.press("Escape");
    await page.getByTestId("recovery-mark").first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shotsDir}/recovery-mark.png` });
    await page.keyboard.press("Escape");
    await page.getByTestId("recovery-settings").click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shotsDir}/recovery-settings.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shotsDir}/recovery-settings-mobile.png` });
  });
});
