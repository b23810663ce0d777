import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";
import { E2E } from "../fixtures/env";
import { enrolSecondFactor, sandboxControl, shoot } from "./helpers";

/** A CPF with valid check digits, from nine digits. */
function cpf(base: number): string {
  const digits = String(base).padStart(9, "0").slice(-9).split("").map(Number);
  const check = (list: number[]) => {
    const sum = list.reduce((total, digit, index) => total + digit * (list.length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  digits.push(check(digits));
  digits.push(check(digits));
  return digits.join("");
}

const formatCpf = (value: string) => `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}-${value.slice(9)}`;

/** R$ amounts written the pt-BR way: "1.234,56" above a thousand, "87,05" below. */
function ptAmount(cents: number): string {
  const reais = Math.floor(cents / 100);
  const centavos = String(cents % 100).padStart(2, "0");
  return `${reais.toLocaleString("pt-BR")},${centavos}`;
}

const FIRST = ["João", "Maria", "Ana", "José", "Antônio", "Francisca", "Luís", "Márcia", "Paulo", "Cecília"];
const LAST = ["da Silva", "Conceição", "Araújo", "Gonçalves", "Ribeiro", "Lima", "Pereira", "Assunção", "Brandão", "Simões"];

type Row = { key: string; type: string; amount: string; name: string; document: string; description: string; reference: string };

/**
 * 200 rows as Excel pt-BR saves them (`;`, amounts like "1.234,56"), keys mixed e-mail / CPF /
 * phone, with exactly five bad ones at known lines: an invalid CPF, three decimals, a negative
 * amount, a key that is not of its stated type, and a repetition of another row.
 */
function batchFile(tag: string) {
  const rows: Row[] = [];
  let totalCents = 0;
  for (let i = 0; i < 200; i++) {
    const document = cpf(100_000_000 + i * 3_517_117);
    const cents = 1_000 + ((i * 7_919) % 190_000);
    const kind = i % 3;
    const key =
      kind === 0
        ? `recebedor.${tag}.${i}@exemplo.com.br`
        : kind === 1
          ? formatCpf(document)
          : `+55 11 9${String(7_000_0000 + i * 131).slice(0, 8)}`;
    const type = i % 2 === 0 ? "" : kind === 0 ? "email" : kind === 1 ? "cpf" : "celular";
    rows.push({
      key,
      type,
      amount: ptAmount(cents),
      name: `${FIRST[i % 10]} ${LAST[Math.floor(i / 10) % 10]}`,
      document: formatCpf(document),
      description: `Comissão ${i + 1}`,
      reference: `${tag}-${i + 1}`,
    });
    totalCents += cents;
  }
  // Lines in the file: the header is line 1, rows[i] is line i + 2.
  const bad: Record<number, string> = {};
  const spoil = (index: number, code: string, change: (row: Row) => void) => {
    const before = rows[index]!;
    totalCents -= Math.round(Number(before.amount.replace(/\./g, "").replace(",", ".")) * 100);
    change(before);
    bad[index + 2] = code;
  };
  spoil(11, "cpfInvalid", (row) => (row.document = row.document.replace(/\d$/, (d) => String((Number(d) + 1) % 10))));
  spoil(47, "amountTooManyDecimals", (row) => (row.amount = "12,345"));
  spoil(88, "amountNotPositive", (row) => (row.amount = "-50,00"));
  spoil(120, "keyTypeMismatch", (row) => {
    row.key = `tipo.errado.${tag}@exemplo.com.br`;
    row.type = "cpf";
  });
  // The same key and amount as line 32 (rows[30]), under another identifier.
  spoil(163, "duplicateInFile", (row) => {
    row.key = rows[30]!.key;
    row.type = rows[30]!.type;
    row.amount = rows[30]!.amount;
  });
  const header = "chave_pix;tipo_chave;valor;nome;documento;descricao;identificador";
  const lines = rows.map((r) => [r.key, r.type, r.amount, r.name, r.document, r.description, r.reference].join(";"));
  return { csv: `\uFEFF${[header, ...lines].join("\r\n")}\r\n`, bad, validTotalCents: totalCents };
}

const RAW_CODES =
  /\b(OK|PENDING|COMPLETED|SUBMITTED|FAILED|CANCELED|DRAFT|AWAITING_APPROVAL|REJECTED|RUNNING|PAUSED|FINISHED|QUEUED|SENDING|SENT|REFUSED|UNKNOWN)\b/;

/** What a person reads on the page (payload ids marked data-raw aside), as the raw-code scan of e2e/charges/status-words.spec.ts does. */
async function visibleWords(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const clone = main.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("pre, code, [data-raw]").forEach((node) => node.remove());
    return clone.innerText;
  });
}

/** As e2e/budgets/axe.spec.ts judges every page: no serious or critical WCAG A/AA violation. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

const money = (cents: number) => `R$ ${(cents / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test.describe("batch Pix payouts", () => {
  test("200 rows with 5 bad ones: flagged with reasons, removed, submitted; the maker cannot approve; a second person approves with the second factor; 195 sent live; the results list 195 transfers", async ({
    browser,
    adminPage,
  }) => {
    // Two enrolment/approval codes from distinct time steps, and 195 transfers through the sandbox.
    test.setTimeout(240_000);
    const accountId = await demoAccountId(adminPage);
    const maker = await createUserAsAdmin(adminPage, { role: "producer" });
    const checker = await createUserAsAdmin(adminPage, { role: "producer" });
    const tag = `e2e${Date.now().toString(36)}`;
    const file = batchFile(tag);

    // The maker uploads the file.
    const page = await signedInPage(browser, maker);
    await page.goto(`/${accountId}/payouts`);
    await expect(page.getByTestId("who-approves")).toContainText("nunca quem o preparou");
    await page.getByRole("link", { name: "Novo lote" }).click();
    await expect(page.getByRole("heading", { name: "Novo lote de pagamento" })).toBeVisible();
    // A file the parser cannot read is named at the field, and nothing else is lost.
    await page.getByLabel("Planilha (.csv ou .xlsx)").setInputFiles({
      name: "velho.xls",
      mimeType: "application/vnd.ms-excel",
      buffer: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]),
    });
    await expect(page.getByLabel("Nome do lote")).toHaveValue("velho");
    await page.getByRole("button", { name: "Carregar e validar" }).click();
    await expect(page.getByText("o .xls antigo não é aceito")).toBeVisible();
    await shoot(page, "payouts-new-file-problem");
    await expect(page).toHaveURL(/\/payouts\/new$/);
    await page
      .getByLabel("Planilha (.csv ou .xlsx)")
      .setInputFiles({ name: `comissoes-${tag}.csv`, mimeType: "text/csv", buffer: Buffer.from(file.csv, "utf8") });
    await expect(page.getByLabel("Nome do lote")).toHaveValue(`comissoes-${tag}`);
    await page.getByRole("button", { name: "Carregar e validar" }).click();
    await expect(page).toHaveURL(/\/payouts\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const batchUrl = page.url();

    // The preview: totals, and exactly the five bad rows first, each with its reason in words.
    await expect(page.getByTestId("batch-state")).toHaveText("Rascunho");
    await expect(page.getByTestId("stat-rows")).toContainText("200");
    await expect(page.getByTestId("stat-errors")).toContainText("5");
    await expect(page.getByTestId("stat-valid")).toContainText("195");
    await expect(page.getByTestId("stat-total")).toContainText(money(file.validTotalCents));
    const flagged = page.locator('[data-testid="payout-row"]:not([data-problems=""])');
    await expect(flagged).toHaveCount(5);
    const found: Record<number, string> = {};
    for (const row of await flagged.all()) found[Number(await row.getAttribute("data-line"))] = (await row.getAttribute("data-problems"))!;
    expect(found).toEqual(file.bad);
    await expect(page.getByTestId("payout-row").first()).toHaveAttribute("data-problems", /.+/);
    for (const reason of [
      "CPF do recebedor inválido",
      "Valor com mais de 2 casas decimais",
      "O valor deve ser maior que zero",
      "A chave é de outro tipo que o informado",
      "Linha repetida",
    ]) {
      await expect(page.getByTestId("row-problem").filter({ hasText: reason })).toHaveCount(1);
    }
    await expect(page.getByTestId("submit-blocked")).toContainText("Corrija ou remova as 5 linhas com erro");
    expect(await visibleWords(page)).not.toMatch(RAW_CODES);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, "payouts-preview");

    await page.getByTestId("remove-error-rows").click();
    await expect(page.getByTestId("stat-errors")).toContainText("0");
    await expect(page.getByTestId("stat-removed")).toContainText("5");
    await expect(page.getByTestId("stat-rows")).toContainText("195");
    await page.getByRole("button", { name: "Enviar para aprovação" }).click();
    await expect(page.getByTestId("batch-state")).toHaveText("Aguardando aprovação");

    // The maker may approve batches (a producer), but not their own: the page says why, and offers no approval.
    await expect(page.getByTestId("self-approval-blocked")).toContainText("Você preparou este lote, por isso não pode aprová-lo");
    await expect(page.getByTestId("approve-batch")).toHaveCount(0);
    await expect(page.getByTestId("withdraw-batch")).toBeVisible();
    expect(await visibleWords(page)).not.toMatch(RAW_CODES);
    await shoot(page, "payouts-waiting-maker");

    // The checker: a second producer, with the second factor, on the approval screen.
    const checkerPage = await signedInPage(browser, checker);
    const app = await enrolSecondFactor(checkerPage);
    await checkerPage.goto(batchUrl);
    const screen = checkerPage.getByTestId("approval-screen");
    await expect(screen.getByTestId("approval-account")).toContainText("Sandbox — demo");
    await expect(screen.getByTestId("approval-account")).toContainText("Teste: nenhum dinheiro de verdade se move.");
    await expect(screen.getByTestId("approval-rows")).toContainText("195");
    await expect(screen.getByTestId("approval-total")).toContainText(money(file.validTotalCents));
    await expect(checkerPage.getByTestId("self-approval-blocked")).toHaveCount(0);
    expect(await visibleWords(checkerPage)).not.toMatch(RAW_CODES);
    expect(await seriousViolations(checkerPage)).toEqual([]);
    await shoot(checkerPage, "payouts-approval");

    // A wrong password is named at its field; then password and code approve.
    await checkerPage.getByLabel("Sua senha").fill("not-the-password");
    await checkerPage.getByLabel("Código do aplicativo autenticador").fill("000000");
    await checkerPage.getByTestId("approve-batch").click();
    await expect(checkerPage.getByText("Senha incorreta. O lote não foi aprovado.")).toBeVisible();
    await checkerPage.getByLabel("Sua senha").fill(checker.password);
    await checkerPage.getByLabel("Código do aplicativo autenticador").fill(await app.code());
    await checkerPage.getByTestId("approve-batch").click();

    // Progress follows by itself to the end: no reload.
    const progress = checkerPage.getByTestId("batch-progress");
    // The server is busy sending while it renders: the approval's answer may take a few seconds.
    await expect(progress).toBeVisible({ timeout: 60_000 });
    await expect(checkerPage.getByRole("progressbar", { name: "Progresso do envio do lote" })).toBeVisible();
    await expect(progress).toHaveAttribute("data-remaining", "0", { timeout: 120_000 });
    await expect(checkerPage.getByTestId("count-remaining")).toHaveText(/^Restantes\s*0$/);
    await expect(checkerPage.getByTestId("count-sent")).toHaveText(/^Enviadas\s*195$/);
    await expect(checkerPage.getByTestId("count-failed")).toHaveText(/^Com falha\s*0$/);
    await expect(checkerPage.getByTestId("batch-state")).toHaveText("Concluído", { timeout: 15_000 });

    // The results file: 195 transfers, each with the gateway's withdraw id.
    const [download] = await Promise.all([checkerPage.waitForEvent("download"), checkerPage.getByTestId("results-csv").click()]);
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
    const lines = text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe("linha;identificador;chave_pix;nome;valor;status;id_saque;taxa;erro");
    const results = lines.slice(1).map((line) => line.split(";"));
    expect(results).toHaveLength(195);
    expect(results.every((cells) => cells[6] && cells[6].length > 0)).toBe(true);
    expect(new Set(results.map((cells) => cells[6])).size).toBe(195);
    expect(results.some((cells) => Object.keys(file.bad).includes(cells[0]!))).toBe(false);

    // A few withdraws settle at the gateway: their rows follow (completed, failed) in words.
    const [first, second, third] = results.map((cells) => cells[6]!);
    await sandboxControl().completeWithdraw(first!);
    await sandboxControl().completeWithdraw(second!);
    await sandboxControl().failWithdraw(third!);
    // Without a reload: the page keeps reading while rows wait for the gateway's word.
    await expect(checkerPage.getByTestId("count-completed")).toHaveText(/^Concluídas\s*2$/, { timeout: 20_000 });
    await expect(checkerPage.getByTestId("count-failed")).toHaveText(/^Com falha\s*1$/, { timeout: 20_000 });
    await expect(checkerPage.locator('[data-testid="result-row"][data-outcome="completed"]').first()).toContainText("Concluída");
    expect(await visibleWords(checkerPage)).not.toMatch(RAW_CODES);
    expect(await seriousViolations(checkerPage)).toEqual([]);
    await shoot(checkerPage, "payouts-finished");

    // The list names the batch, its state and its progress.
    await checkerPage.goto(`/${accountId}/payouts`);
    const listed = checkerPage.locator(`[data-testid="payout-batch-row"][data-batch-id="${batchUrl.split("/").pop()}"]`);
    await expect(listed).toContainText("Concluído");
    await expect(listed).toContainText("195");
    expect(await visibleWords(checkerPage)).not.toMatch(RAW_CODES);
    await shoot(checkerPage, "payouts-list");

    await page.context().close();
    await checkerPage.context().close();
  });

  test("an analyst pastes rows, fixes one in place, submits, cannot approve (and is told who can), withdraws, and uploads the file again", async ({
    browser,
    adminPage,
  }) => {
    const accountId = await demoAccountId(adminPage);
    const analyst = await createUserAsAdmin(adminPage, { role: "operator" });
    const page = await signedInPage(browser, analyst);
    const tag = `p${Date.now().toString(36)}`;
    const good = cpf(123_456_789);
    // As Excel copies cells: tab-separated, the header first.
    const pasted = [
      "chave_pix\ttipo_chave\tvalor\tnome\tdocumento\tdescricao\tidentificador",
      `ana.${tag}@exemplo.com.br\t\t150,00\tAna Lima\t${formatCpf(good)}\tFrete\t${tag}-1`,
      `bruno.${tag}@exemplo.com.br\temail\t1.020,30\tBruno Araújo\t111.444.777-00\t\t${tag}-2`,
    ].join("\n");
    await page.goto(`/${accountId}/payouts/new`);
    await page.getByRole("tab", { name: "Colar linhas" }).click();
    await page.getByLabel("Linhas copiadas da planilha").fill(pasted);
    await page.getByRole("button", { name: "Carregar e validar" }).click();
    await expect(page).toHaveURL(/\/payouts\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(page.getByTestId("stat-rows")).toContainText("2");
    await expect(page.getByTestId("stat-errors")).toContainText("1");
    const bad = page.locator('[data-testid="payout-row"][data-line="3"]');
    await expect(bad).toHaveAttribute("data-problems", "cpfInvalid");

    // Fixed in place: a fix that is still wrong keeps the dialog open, the reason at its field.
    await bad.getByTestId("fix-row").click();
    const dialog = page.getByRole("dialog", { name: "Corrigir a linha 3" });
    await expect(dialog.getByText("CPF do recebedor inválido")).toBeVisible();
    await dialog.getByLabel("Valor").fill("1.020,305");
    await shoot(page, "payouts-fix-dialog");
    await dialog.getByRole("button", { name: "Salvar e validar" }).click();
    await expect(dialog.getByText("Valor com mais de 2 casas decimais")).toBeVisible();
    await dialog.getByLabel("Valor").fill("1.020,30");
    await dialog.getByLabel("CPF ou CNPJ do recebedor").fill(formatCpf(cpf(987_654_321)));
    await dialog.getByRole("button", { name: "Salvar e validar" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("stat-errors")).toContainText("0");
    await expect(page.getByTestId("stat-total")).toContainText("R$ 1.170,30");

    // An operator prepares but does not approve: the page says who may.
    await page.getByRole("button", { name: "Enviar para aprovação" }).click();
    await expect(page.getByTestId("batch-state")).toHaveText("Aguardando aprovação");
    await expect(page.getByTestId("waiting-for-checker")).toContainText("Administrador ou Produtor");
    await expect(page.getByTestId("approve-batch")).toHaveCount(0);
    expect(await visibleWords(page)).not.toMatch(RAW_CODES);

    // Withdrawn to edit, then the file uploaded again replaces the rows.
    await page.getByTestId("withdraw-batch").click();
    await expect(page.getByTestId("batch-state")).toHaveText("Rascunho");
    await page.getByRole("button", { name: "Enviar o arquivo de novo" }).click();
    const upload = page.getByRole("dialog", { name: "Enviar o arquivo de novo" });
    const csv = `chave_pix;valor;nome;documento\r\ncarla.${tag}@exemplo.com.br;99,90;Carla Dias;${formatCpf(good)}\r\n`;
    await upload.getByLabel("Planilha (.csv ou .xlsx)").setInputFiles({ name: "novo.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await upload.getByRole("button", { name: "Substituir as linhas" }).click();
    await expect(upload).toBeHidden();
    await expect(page.getByTestId("stat-rows")).toContainText("1");
    await expect(page.getByTestId("stat-total")).toContainText("R$ 99,90");
    await page.context().close();
  });

  test("an administrator allows self-approval on a one-person account: the maker approves their own batch, shown as “Autoaprovado”", async ({
    browser,
    adminPage,
  }) => {
    test.setTimeout(180_000);
    // An account of its own (same sandbox producer), so the setting touches no other test.
    const name = `Sandbox — uma pessoa ${Date.now()}`;
    await adminPage.goto("/accounts");
    await adminPage.getByRole("button", { name: "Nova conta" }).click();
    const accountDialog = adminPage.getByRole("dialog");
    await accountDialog.getByLabel("Nome").fill(name);
    await accountDialog.getByLabel("URL base").fill(E2E.sandboxUrl);
    await accountDialog.getByLabel("Chave pública").fill("pk_sandbox_demo");
    await accountDialog.getByLabel("Chave secreta").fill("sk_sandbox_demo");
    await accountDialog.getByRole("button", { name: "Salvar" }).click();
    await expect(adminPage).toHaveURL(/\/accounts\/[0-9a-f-]{36}$/);
    const accountId = adminPage.url().split("/").pop()!;

    await adminPage.goto(`/${accountId}/payouts`);
    const setting = adminPage.getByTestId("self-approval-setting");
    await expect(setting).toHaveAttribute("data-allowed", "false");
    await setting.getByRole("button", { name: "Permitir autoaprovação" }).click();
    const confirm = adminPage.getByRole("dialog", { name: "Permitir autoaprovação nesta conta?" });
    await expect(confirm).toContainText("Uma só pessoa poderá mover o dinheiro do lote inteiro");
    await shoot(adminPage, "payouts-self-approval-confirm");
    await confirm.getByRole("button", { name: "Permitir mesmo assim" }).click();
    await expect(setting).toHaveAttribute("data-allowed", "true");
    await expect(adminPage.getByTestId("who-approves")).toContainText("Autoaprovação permitida nesta conta");

    const owner = await createUserAsAdmin(adminPage, { role: "producer", accounts: [name] });
    const page = await signedInPage(browser, owner);
    const app = await enrolSecondFactor(page);
    await page.goto(`/${accountId}/payouts/new`);
    await page.getByRole("tab", { name: "Colar linhas" }).click();
    await page
      .getByLabel("Linhas copiadas da planilha")
      .fill(`chave_pix;valor;nome;documento\nsolo.${Date.now()}@exemplo.com.br;25,00;Dona Solo;${formatCpf(cpf(222_333_444))}`);
    await page.getByRole("button", { name: "Carregar e validar" }).click();
    await expect(page).toHaveURL(/\/payouts\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await page.getByRole("button", { name: "Enviar para aprovação" }).click();
    await expect(page.getByTestId("self-approval-note")).toContainText("A autoaprovação é permitida nesta conta");
    await page.getByLabel("Sua senha").fill(owner.password);
    await page.getByLabel("Código do aplicativo autenticador").fill(await app.code());
    await page.getByTestId("approve-batch").click();
    await expect(page.getByTestId("batch-progress")).toHaveAttribute("data-remaining", "0", { timeout: 60_000 });
    await expect(page.getByTestId("self-approved")).toHaveText("Autoaprovado");
    await page.goto(`/${accountId}/payouts`);
    await expect(page.getByTestId("payout-batch-row").first().getByTestId("self-approved")).toHaveText("Autoaprovado");
    await page.context().close();
  });
});
