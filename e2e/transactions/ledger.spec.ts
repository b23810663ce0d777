import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";
import { E2E } from "../fixtures/env";
import {
  addAccount,
  DEMO_TOKEN,
  demoAccountId,
  demoClient,
  gatewayPost,
  notifyTransactions,
  sandboxControl,
  shotsDir,
  webhookUrl,
} from "./helpers";
import { demoPath } from "../fixtures/sandbox";

const rows = (page: import("@playwright/test").Page) => page.getByTestId("transaction-row");

test("filters live in the URL: search, status, method and amount narrow the list; a saved view brings them back", async ({
  adminPage: page,
}) => {
  const accountId = await demoAccountId(page);
  const tag = `zeta${randomUUID().slice(0, 6)}`;
  // Charges the producer's backend made at the gateway, confirmed by the gateway's lookup; statuses that move no money.
  await notifyTransactions(page.request, accountId, [
    { status: "PENDING", method: "PIX", amount: 42.5, name: `Ana ${tag}`, email: `ana.${tag}@example.com` },
    { status: "PENDING", method: "BOLETO", amount: 150, name: `Bruno ${tag}`, email: `bruno.${tag}@example.com` },
    // A status no table knows, set at the sandbox before the console hears of the transaction.
    { status: `STATUS_NOVO_${tag.toUpperCase()}`, method: "PIX", amount: 9.99, name: `Carla ${tag}`, email: `carla.${tag}@example.com` },
  ]);

  await page.goto(await demoPath(page, "/transactions"));
  await page.getByLabel("Buscar").fill(tag);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  await expect(rows(page)).toHaveCount(3);
  // An unknown status is shown exactly as reported, marked as the gateway's.
  await expect(page.getByTestId("transactions-table").getByText(`STATUS_NOVO_${tag.toUpperCase()}`)).toBeVisible();

  await page.getByLabel("Status").click();
  // Options read as words; the gateway's spelling is each option's data-raw (OK and PENDING read alike).
  await page
    .getByRole("option")
    .filter({ has: page.locator('[data-raw="PENDING"]') })
    .click();
  await page.getByLabel("Método").click();
  await page.getByRole("option", { name: "Pix", exact: true }).click();
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/status=PENDING/);
  await expect(page).toHaveURL(/method=PIX/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("R$ 42,50");
  await expect(rows(page).first()).toContainText(`Ana ${tag}`);

  // The URL alone reproduces the list (shareable); amount range in reais.
  await page.goto(await demoPath(page, `/transactions?q=${tag}&min=100&max=200`));
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`Bruno ${tag}`);
  await page.goto(await demoPath(page, `/transactions?q=${tag}&from=2020-01-01&to=2020-01-31`));
  await expect(page.getByText("Nenhuma transação com estes filtros")).toBeVisible();
  // The console draws its own date fields, in its language: dd/mm/aaaa and a Portuguese calendar.
  await expect(page.getByLabel("De", { exact: true })).toHaveValue("01/01/2020");
  await page.getByLabel("Até", { exact: true }).fill("15/01/2020");
  await page.getByTestId("filter-from-calendar").click();
  await expect(page.getByRole("dialog")).toContainText("janeiro 2020");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/transactions-calendar.png` });
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /10 de janeiro de 2020/ })
    .click();
  await expect(page.getByLabel("De", { exact: true })).toHaveValue("10/01/2020");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/from=2020-01-10/);
  await expect(page).toHaveURL(/to=2020-01-15/);

  // Save a view, clear the filters, re-apply the view.
  await page.goto(await demoPath(page, `/transactions?q=${tag}&method=PIX`));
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole("button", { name: "Salvar visão" }).click();
  await page.getByRole("dialog").getByLabel("Nome da visão").fill(`Pix ${tag}`);
  await page.getByRole("dialog").getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText(`Visão “Pix ${tag}” salva`)).toBeVisible();
  await page.getByRole("button", { name: "Limpar" }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  await page.getByRole("button", { name: /Visões salvas/ }).click();
  await page.getByRole("link", { name: `Pix ${tag}` }).click();
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  await expect(page).toHaveURL(/method=PIX/);
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByLabel("Buscar")).toHaveValue(tag);
  if (shotsDir) {
    await page.screenshot({ path: `${shotsDir}/transactions-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shotsDir}/transactions-mobile.png`, fullPage: true });
    await page.setViewportSize({ width: 1360, height: 900 });
  }

  // The overview counts only confirmed money: pending charges and an unknown status are not.
  await page.goto(await demoPath(page, ""));
  await expect(page.getByTestId("overview-periods")).toBeVisible();
  await expect(page.getByTestId("paid-volume").first()).toHaveAttribute("data-currency", "BRL");
  await expect(page.getByTestId("volume-chart").or(page.getByText("Nenhum pagamento confirmado nos últimos 30 dias."))).toBeVisible();
  await expect(page.getByTestId("latest-activity")).toContainText("e2e-");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/overview-desktop.png`, fullPage: true });
});

test("CSV export downloads every matching row, with progress, BOM, header and machine-readable amounts", async ({ adminPage: page }) => {
  const accountId = await demoAccountId(page);
  const tag = `csv${randomUUID().slice(0, 6)}`;
  // Resolves once the gateway's lookups have confirmed all three into the ledger.
  await notifyTransactions(page.request, accountId, [
    { status: "PENDING", method: "PIX", amount: 1234.56, name: `Dora; "${tag}"`, email: `dora.${tag}@example.com` },
    { status: "COMPLETED", method: "PIX", amount: 10, name: `Eva ${tag}`, email: `eva.${tag}@example.com` },
    { status: "EM_ANALISE", method: "CREDIT_CARD", amount: 0.5, name: `=cmd ${tag}`, email: `fe.${tag}@example.com` },
  ]);
  await page.goto(await demoPath(page, `/transactions?q=${tag}`));
  await expect(rows(page)).toHaveCount(3);
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Todas as 3 transações");
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Exportar", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^transacoes_.*\.csv$/);
  await expect(dialog.getByTestId("export-progress")).toContainText("3 linhas");
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  const lines = bytes.subarray(3).toString("utf8").split("\r\n").filter(Boolean);
  expect(lines).toHaveLength(4);
  const header = lines[0]!.split(";");
  expect(header).toEqual(
    expect.arrayContaining(["id_gateway", "status", "metodo", "valor", "valor_centavos", "cliente_nome", "criado_em", "criado_em_utc"]),
  );
  const dora = lines.find((line) => line.includes("Dora"))!;
  expect(dora).toContain(`"Dora; ""${tag}"""`);
  expect(dora).toContain(";1234,56;123456;");
  expect(dora).toContain(';"PENDING";"PIX";');
  // A cell that Excel would run as a formula is neutralised.
  expect(lines.find((line) => line.includes("cmd"))).toContain(`'=cmd ${tag}`);
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/export-dialog.png` });

  // The export is in the audit log, with the filters used.
  await page.goto("/admin/audit?action=transactions.export");
  await expect(page.getByTestId("audit-row").first()).toContainText("Transações exportadas");
  await expect(page.getByTestId("audit-row").first()).toContainText(E2E.admin.email);
  await page.getByTestId("audit-row").first().getByText("Ver detalhes").click();
  await expect(page.getByTestId("audit-row").first()).toContainText(tag);
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/audit-desktop.png`, fullPage: true });
});

test("lookup adds an outside transaction to the ledger; refresh from gateway flags a status the webhooks never reported", async ({
  adminPage: page,
  request,
}) => {
  test.setTimeout(120_000);
  const accountId = await demoAccountId(page);
  const identifier = `e2e-gap-${randomUUID().slice(0, 8)}`;
  // Created by the producer's own backend, notifying an address where nobody listens: the console
  // hears nothing (and the sandbox's default webhook URL, shared by parallel tests, is not used).
  const charge = await gatewayPost<{ transactionId: string }>(request, "/pix/receive", {
    identifier,
    amount: 61.3,
    client: demoClient,
    callbackUrl: "http://127.0.0.1:65535/nobody-listens",
  });

  await page.goto(await demoPath(page, "/lookup"));
  await page.getByLabel("Valor a buscar").fill("tx_does_not_exist_123");
  await page.getByRole("button", { name: "Consultar" }).click();
  await expect(page.getByTestId("lookup-problem")).toHaveText("Transação não encontrada para este produtor.");

  await page.getByRole("radio", { name: "Identificador" }).click();
  await page.getByLabel("Valor a buscar").fill(identifier);
  await page.getByRole("button", { name: "Consultar" }).click();
  const result = page.getByTestId("lookup-result");
  await expect(result).toContainText(charge.transactionId);
  await expect(result).toContainText("R$ 61,30");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/lookup-desktop.png`, fullPage: true });
  await result.getByRole("button", { name: "Adicionar ao livro" }).click();
  await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
  const detailUrl = page.url();
  await expect(page.getByTestId("last-lookup")).toContainText("Aguardando pagamento");
  await expect(page.getByTestId("status-no-webhook")).toBeVisible();

  // Adding again is idempotent: the lookup now says it is in the ledger and links to the same row.
  await page.goto(await demoPath(page, "/lookup"));
  await page.getByRole("radio", { name: "ID da transação" }).click();
  await page.getByLabel("Valor a buscar").fill(charge.transactionId);
  await page.getByRole("button", { name: "Consultar" }).click();
  await expect(page.getByText("Esta transação já está no livro.")).toBeVisible();
  await page.getByRole("link", { name: "Abrir no livro" }).click();
  await expect(page).toHaveURL(detailUrl);

  // A TRANSACTION_CREATED notification reports OK; the open page refreshes by itself.
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-mode", /live|polling/);
  const delivered = await request.post(webhookUrl(accountId), {
    data: {
      event: "TRANSACTION_CREATED",
      token: DEMO_TOKEN,
      offerCode: null,
      checkoutUrl: "",
      client: { id: "c1", name: demoClient.name, email: demoClient.email, phone: demoClient.phone, cpf: demoClient.document, cnpj: null },
      transaction: {
        id: charge.transactionId,
        identifier,
        status: "OK",
        paymentMethod: "PIX",
        amount: 61.3,
        currency: "BRL",
        createdAt: new Date().toISOString(),
      },
    },
  });
  expect(delivered.status()).toBeLessThan(300);
  await expect(page.getByTestId("last-webhook")).toContainText("Aguardando pagamento", { timeout: 15_000 });
  // The timeline names the notification in words; the gateway's codes are in the tooltip.
  await expect(page.getByTestId("timeline")).toContainText("Notificação de criação recebida: Aguardando pagamento");
  // Then it is paid; its notification goes to the address where nobody listens.
  await sandboxControl().event(charge.transactionId, "pay");

  // The lookup made when adding counts: the server asks to wait.
  await page.getByRole("button", { name: "Atualizar pelo gateway" }).click();
  const notice = page.getByTestId("refresh-notice");
  await expect(notice).toContainText(/Aguarde \d+ s/);
  const wait = Number(/Aguarde (\d+) s/.exec((await notice.textContent()) ?? "")?.[1] ?? 30);
  await page.waitForTimeout((wait + 1) * 1000);
  await page.getByRole("button", { name: "Atualizar pelo gateway" }).click();
  const gap = page.getByTestId("status-gap");
  await expect(gap).toBeVisible();
  await expect(gap).toContainText("O gateway informa Pago na consulta, mas o último webhook informou Aguardando pagamento.");
  await expect(gap.locator("[title]").filter({ hasText: "O gateway informa" })).toHaveAttribute("title", /COMPLETED.*OK/);
  await expect(page.getByTestId("timeline")).toContainText("Consulta ao gateway por admin@e2e.test: Pago");
  // Right after, a second refresh is refused by the server.
  await page.getByRole("button", { name: "Atualizar pelo gateway" }).click();
  await expect(page.getByTestId("refresh-notice")).toContainText(/Aguarde \d+ s/);
  if (shotsDir) {
    await page.screenshot({ path: `${shotsDir}/detail-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shotsDir}/detail-mobile.png`, fullPage: true });
  }
});

test("producer profile: CPF producer, company with legal representative, incomplete KYC, refused keys", async ({ adminPage: page }) => {
  await demoAccountId(page);
  await page.goto(await demoPath(page, "/producer"));
  const card = page.getByTestId("producer-card");
  await expect(card).toBeVisible();
  await expect(card).toContainText(/\d{3}\.\d{3}\.\d{3}-\d{2}/);
  await expect(page.getByTestId("producer-address")).toContainText(/CEP \d{5}-\d{3}/);
  await expect(page.getByTestId("kyc-notice")).toHaveCount(0);
  await expect(page.getByTestId("legal-representative")).toHaveCount(0);

  const suffix = randomUUID().slice(0, 4);
  const company = await addAccount(page, `Empresa ${suffix}`, { publicKey: "pk_sandbox_company", secretKey: "sk_sandbox_company" });
  await page.getByRole("button", { name: "Testar conexão" }).click();
  await expect(page.getByTestId("connection-result")).toHaveAttribute("data-ok", "true");
  await expect(page.getByTestId("connection-result")).toContainText("Conexão funcionando");
  await page.goto(`/${company}/producer`);
  await expect(page.getByTestId("producer-card")).toContainText(/\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}|CNPJ/);
  await expect(page.getByTestId("legal-representative")).toBeVisible();
  await expect(page.getByTestId("legal-representative")).toContainText("CPF");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/producer-company.png`, fullPage: true });

  const noKyc = await addAccount(page, `Sem KYC ${suffix}`, { publicKey: "pk_sandbox_nokyc", secretKey: "sk_sandbox_nokyc" });
  await page.goto(`/${noKyc}/producer`);
  await expect(page.getByTestId("kyc-notice")).toContainText("Cadastro (KYC) incompleto");
  await expect(page.getByTestId("kyc-notice")).toContainText("documento");
  if (shotsDir) {
    await page.screenshot({ path: `${shotsDir}/producer-nokyc.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shotsDir}/producer-nokyc-mobile.png`, fullPage: true });
    await page.setViewportSize({ width: 1360, height: 900 });
  }

  const wrongKey = await addAccount(page, `Chave errada ${suffix}`, { publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_wrong_key" });
  await page.getByRole("button", { name: "Testar conexão" }).click();
  await expect(page.getByTestId("connection-result")).toHaveAttribute("data-ok", "false");
  await expect(page.getByTestId("connection-result")).toContainText("chaves recusadas");
  if (shotsDir) await page.screenshot({ path: `${shotsDir}/test-connection-failed.png` });
  await page.goto(`/${wrongKey}/producer`);
  await expect(page.getByTestId("producer-error")).toContainText("chaves recusadas");

  // Every step above was audited.
  await page.goto(`/admin/audit?action=accounts.`);
  await expect(page.getByTestId("audit-row").filter({ hasText: "Conexão com o gateway testada" }).first()).toBeVisible();
});

test("viewers read the ledger but not the audit log; saved views are per user; the export needs a session", async ({
  adminPage,
  browser,
  playwright,
}) => {
  const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
  const page = await signedInPage(browser, viewer);
  await page.goto(await demoPath(page, "/transactions"));
  await expect(page.getByRole("heading", { name: "Transações" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Auditoria" })).toHaveCount(0);
  await page.goto("/admin/audit");
  await expect(page).toHaveURL(/\/forbidden/);
  // The admin's views are not the viewer's.
  await page.goto(await demoPath(page, "/transactions"));
  await page.getByRole("button", { name: /Visões salvas/ }).click();
  await expect(page.getByText("Nenhuma visão salva")).toBeVisible();
  // A viewer may look a transaction up but not record it in the ledger.
  const outside = await gatewayPost<{ transactionId: string }>(page.request, "/pix/receive", {
    identifier: `e2e-viewer-${randomUUID().slice(0, 8)}`,
    amount: 12.5,
    client: demoClient,
    callbackUrl: "http://127.0.0.1:65535/nobody-listens",
  });
  await page.goto(await demoPath(page, "/lookup"));
  await page.getByRole("radio", { name: "ID da transação" }).click();
  await page.getByLabel("Valor a buscar").fill(outside.transactionId);
  await page.getByRole("button", { name: "Consultar" }).click();
  await expect(page.getByTestId("lookup-result")).toContainText("R$ 12,50");
  await expect(page.getByRole("button", { name: "Adicionar ao livro" })).toHaveCount(0);
  await page.context().close();

  const anonymous = await playwright.request.newContext({ baseURL: E2E.baseUrl });
  const response = await anonymous.get("/api/transactions/export", { maxRedirects: 0 });
  expect([401, 307, 308]).toContain(response.status());
  expect(await response.text()).not.toContain("id_gateway");
  await anonymous.dispose();
});
