import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";
import { expectResult, fillAddress, fillCard, fillCustomer, openChargeForm, sandboxLookup, submit } from "../fixtures/charges";
import { demoAccountId, sandboxControl, webhookUrl } from "../fixtures/sandbox";
import { createSandboxControl } from "../../sandbox/control-client";
import { addAccount } from "../transactions/helpers";
import { fillTransfer } from "../payouts/helpers";
import { E2E } from "../fixtures/env";

// The figures are the whole account's: these tests run one after the other so that each sees what the one before left.
test.describe.configure({ mode: "serial" });

const SHOTS = "test-results/balance-shots";

async function shoot(page: Page, name: string) {
  // The toast of the last save would cover the extrato.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  for (const [label, width] of [
    ["desktop", 1440],
    ["mobile", 390],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** São Paulo's calendar day and minute of an instant (the console's zone, no daylight saving since 2019). */
function saoPaulo(instant: Date) {
  const local = new Date(instant.getTime() - 3 * 3_600_000).toISOString();
  return { day: local.slice(0, 10), time: local.slice(11, 16), display: `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}` };
}

/** "R$ 1.234,56" or "-R$ 12,00" in centavos. */
function centsOf(text: string): number {
  const negative = /-/.test(text);
  const digits = text.replace(/[^\d]/g, "");
  return (negative ? -1 : 1) * Number(digits);
}

/** "1234,56" (the CSV's decimal comma) in centavos. */
const csvCents = (value: string) => Math.round(Number(value.replace(",", ".")) * 100);

async function downloadStatement(page: Page, format: "csv" | "xlsx" = "csv") {
  const download = page.waitForEvent("download");
  await page.getByTestId(`statement-export-${format}`).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, "utf8") };
}

let accountId = "";
let pixReference = "";
let cardReference = "";
let cardAvailableAt = "";

test("the card and Pix sales show in the extrato in words, the CSV carries them and a kind filter narrows it", async ({
  adminPage: page,
  request,
}) => {
  accountId = await demoAccountId(page);

  // A card sale made in the console: approved at once, its fee in the answer, released D+30 at the sandbox.
  const cardIdentifier = await openChargeForm(page, "card", accountId);
  await page.getByLabel("Valor (R$)").fill("123,45");
  await fillCustomer(page);
  await fillAddress(page);
  await fillCard(page, { number: "4111111111111111", ip: "203.0.113.10" });
  await submit(page);
  await expectResult(page);
  await expect(page.getByTestId("card-result")).toHaveAttribute("data-outcome", "approved");
  const card = await sandboxLookup(cardIdentifier);
  cardReference = String(card?.id);
  cardAvailableAt = String(card?.availableAt);

  // A Pix sale made in the console and paid at the sandbox: the console learns it from the notification, confirmed by a lookup.
  await openChargeForm(page, "pix", accountId);
  await page.getByLabel("Valor (R$)").fill("87,60");
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  pixReference = (await page.getByTestId("result-transaction-id").textContent())!.trim();
  await sandboxControl().event(pixReference, "pay");

  await page.goto(`/${accountId}/balance`);
  const rowOf = (reference: string, kind: string) =>
    page.locator(`[data-testid="statement-row"][data-kind="${kind}"]`, { hasText: reference });
  await expect(async () => {
    await page.reload();
    await expect(rowOf(pixReference, "sale")).toHaveCount(1, { timeout: 1_000 });
    await expect(rowOf(cardReference, "sale")).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const pixSale = rowOf(pixReference, "sale");
  await expect(pixSale.locator('[data-col="kind"]')).toHaveText("Venda");
  await expect(pixSale.locator('[data-col="kind"]')).toHaveAttribute("data-raw", "sale");
  await expect(pixSale.locator('[data-col="amount"]')).toContainText("+R$ 87,60");
  await expect(pixSale.getByRole("link", { name: "Transação" })).toHaveAttribute("href", new RegExp(`^/${accountId}/transactions/`));
  await expect(rowOf(cardReference, "fee").locator('[data-col="kind"]')).toHaveText("Taxa do gateway");
  await expect(page.getByTestId("balance-source")).toContainText(
    /Calculado (pelo console a partir do saldo informado|a partir do primeiro movimento conhecido)/,
  );
  // Without a kind filter each line carries the balance after it.
  await expect(pixSale.locator('[data-col="balance-available"]')).toHaveText(/R\$/);

  // The extrato as CSV: the period's every movement, kinds in words and as their code.
  const today = saoPaulo(new Date()).day;
  const csv = await downloadStatement(page);
  expect(csv.name).toBe(`extrato_${today.slice(0, 8)}01_${today}.csv`);
  const lines = csv.text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "data;data_utc;tipo;tipo_codigo;referencia;transacao_id;transferencia_id;valor;disponivel;a_liberar;saldo_disponivel;saldo_a_liberar",
  );
  expect(lines.some((line) => line.includes(`;"Venda";sale;"${pixReference}";`))).toBe(true);
  expect(lines.some((line) => line.includes(`;"Venda";sale;"${cardReference}";`))).toBe(true);

  // A kind filter from the form: only sales, and no running balance (lines are left out).
  const filters = page.getByTestId("statement-filters");
  await filters.getByLabel("Venda", { exact: true }).check();
  await filters.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/kind=sale/);
  await expect(page.getByTestId("statement-filtered-note")).toBeVisible();
  const kinds = await page.getByTestId("statement-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-kind")));
  expect(kinds.length).toBeGreaterThan(0);
  expect(new Set(kinds)).toEqual(new Set(["sale"]));
  await expect(rowOf(pixReference, "sale").locator('[data-col="balance-available"]')).toHaveText("—");
  // A comma list in the address reads the same; an unknown kind is dropped and said so.
  await page.goto(`/${accountId}/balance?kind=fee,nope`);
  await expect(page.getByTestId("params-problems")).toBeVisible();
  const feeKinds = await page.getByTestId("statement-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-kind")));
  expect(new Set(feeKinds)).toEqual(new Set(["fee"]));
  // The export follows the filter.
  const fees = await downloadStatement(page);
  expect(
    fees.text
      .split("\r\n")
      .slice(1, -1)
      .every((line) => line.includes(";fee;")),
  ).toBe(true);
  const xlsx = page.waitForEvent("download");
  await page.getByTestId("statement-export-xlsx").click();
  const workbook = await xlsx;
  expect(workbook.suggestedFilename()).toBe(`extrato_${today.slice(0, 8)}01_${today}.xlsx`);
  expect((await readFile((await workbook.path())!)).subarray(0, 2).toString()).toBe("PK");
  // No session, no extrato: sent to sign in.
  const anonymous = await request.get(`/${accountId}/balance/export/csv`, { maxRedirects: 0 });
  expect([307, 401]).toContain(anonymous.status());
  expect(await anonymous.text()).not.toContain("data_utc");
});

test("the release calendar shows the card sale's release once the console learned its date", async ({ adminPage: page }) => {
  // The sandbox tells availableAt (card: D+30) in its lookups; the console looks the paid sale up once to learn it.
  const releaseDay = saoPaulo(new Date(cardAvailableAt)).day;
  await page.goto(`/${accountId}/balance`);
  const day = page.locator(`[data-testid="release-day"][data-day="${releaseDay}"]`);
  await expect(async () => {
    await page.reload();
    await expect(day).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await day.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`from=${releaseDay}&to=${releaseDay}&kind=release`));
  // The release has not happened yet: it is listed as expected, not in the extrato.
  await expect(page.getByTestId("statement-upcoming")).toContainText(cardReference);
});

test("Informar saldo do gateway: the typed balance is carried forward with the movements after its reading", async ({
  adminPage: page,
}) => {
  await page.goto(`/${accountId}/balance`);
  await page.getByTestId("balance-entry-open").click();
  const dialog = page.getByRole("dialog");
  const now = saoPaulo(new Date());
  await expect(dialog.getByLabel("Hora da leitura (hh:mm)")).toHaveValue(/^\d\d:\d\d$/);
  await dialog.getByLabel("Disponível no gateway").fill("1234,56");
  await expect(dialog.getByLabel("Disponível no gateway")).toHaveValue("1.234,56");
  await dialog.getByLabel("A liberar no gateway").fill("250,10");

  // A reading in the future is refused at its fields, and nothing typed is lost.
  const tomorrow = saoPaulo(new Date(Date.now() + 86_400_000));
  await dialog.getByLabel("Data da leitura").fill(tomorrow.display);
  await dialog.getByRole("button", { name: "Salvar saldo" }).click();
  await expect(dialog.getByText("A leitura não pode ser no futuro.").first()).toBeVisible();
  await expect(dialog.getByLabel("Disponível no gateway")).toHaveValue("1.234,56");

  await dialog.getByLabel("Data da leitura").fill(now.display);
  await dialog.getByLabel("Hora da leitura (hh:mm)").fill(now.time);
  await dialog.getByRole("button", { name: "Salvar saldo" }).click();
  await expect(dialog).toBeHidden();
  const readAt = Date.parse(`${now.day}T${now.time}:00-03:00`);

  await expect(page.getByTestId("balance-source")).toHaveAttribute("data-source", "entry");
  await expect(page.getByTestId("balance-source")).toContainText(
    `Calculado pelo console a partir do saldo informado em ${now.display}, ${now.time}`,
  );
  // What the page shows = what was typed + every movement after the reading (read back from the extrato's CSV).
  await expect(async () => {
    await page.goto(`/${accountId}/balance?from=${now.day}&to=${now.day}`);
    const csv = await downloadStatement(page);
    let available = 123_456;
    let pending = 25_010;
    for (const line of csv.text.split("\r\n").slice(1, -1)) {
      const cells = line.split(";");
      if (Date.parse(cells[1]!) <= readAt) continue;
      available += csvCents(cells[8]!);
      pending += csvCents(cells[9]!);
    }
    expect(centsOf(await page.getByTestId("balance-available-value").innerText())).toBe(available);
    expect(centsOf(await page.getByTestId("balance-pending-value").innerText())).toBe(pending);
  }).toPass({ timeout: 20_000 });

  const entry = page.getByTestId("entry-row").first();
  await expect(entry).toContainText("R$ 1.234,56");
  await expect(entry).toContainText("R$ 250,10");

  // The same reading entered again matches what the console carried to it: no unexplained difference.
  await page.getByTestId("balance-entry-open").click();
  await dialog.getByLabel("Disponível no gateway").fill("1234,56");
  await dialog.getByLabel("A liberar no gateway").fill("250,10");
  await dialog.getByLabel("Data da leitura").fill(now.display);
  await dialog.getByLabel("Hora da leitura (hh:mm)").fill(now.time);
  await dialog.getByRole("button", { name: "Salvar saldo" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("entry-row").first()).toHaveAttribute("data-note", "none");
  await expect(page.getByTestId("entry-row").first()).toContainText("sem diferença");
  await expect(page.getByTestId("month-closing")).toContainText("Fechamento do mês");
  await shoot(page, "balance");
});

test("a reader sees the balance and the extrato but cannot enter a balance", async ({ adminPage: page, browser }) => {
  const viewer = await createUserAsAdmin(page, { role: "viewer" });
  const reader = await signedInPage(browser, viewer);
  try {
    await reader.goto(`/${accountId}/balance`);
    await expect(reader.getByTestId("balance-available-value")).toHaveText(/R\$/);
    await expect(reader.locator('[data-testid="statement-row"]', { hasText: pixReference }).first()).toBeVisible();
    await expect(reader.getByTestId("balance-entry-open")).toHaveCount(0);
    await expect(reader.getByRole("link", { name: "Saldo", exact: true })).toBeVisible();
  } finally {
    await reader.context().close();
  }
});

/** The sandbox's own figures for a producer (GET /sandbox/v1/balance), in centavos. */
async function sandboxBalance(keys: { publicKey: string; secretKey: string }) {
  const response = await fetch(`${E2E.sandboxUrl}/sandbox/v1/balance`, {
    headers: { "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { available: number; pending: number };
  return { available: Math.round(body.available * 100), pending: Math.round(body.pending * 100) };
}

/** Sales made at the sandbox as the producer's own backend would, dated with `x-sandbox-at` when `at` is given. */
async function gatewaySale(keys: { publicKey: string; secretKey: string }, method: "pix" | "card" | "boleto", amount: number, at?: Date) {
  const client = { name: "Maria Souza", email: "maria@example.com", phone: "11988887777", document: "52998224725" };
  const body: Record<string, unknown> = { identifier: `e2e-extrato-${method}-${randomUUID().slice(0, 8)}`, amount, client };
  if (method === "card") {
    body.clientIp = "200.100.50.25";
    body.client = {
      ...client,
      address: {
        country: "BR",
        zipCode: "01310-100",
        state: "SP",
        city: "São Paulo",
        street: "Avenida Paulista",
        neighborhood: "Bela Vista",
        number: "1000",
      },
    };
    body.card = { number: "4111111111111111", owner: "MARIA SOUZA", expiresAt: "2031-12", cvv: "123" };
  }
  const response = await fetch(`${E2E.sandboxUrl}/api/v1/gateway/${method}/receive`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-public-key": keys.publicKey,
      "x-secret-key": keys.secretKey,
      ...(at ? { "x-sandbox-at": at.toISOString() } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text) as { transactionId: string; fee: number };
}

/** A control transition at the sandbox (pay, refund, chargeback), dated with `x-sandbox-at` when `at` is given. */
async function transition(keys: { publicKey: string; secretKey: string }, id: string, type: string, at?: Date) {
  const response = await fetch(`${E2E.sandboxUrl}/sandbox/v1/transactions/${id}/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-public-key": keys.publicKey,
      "x-secret-key": keys.secretKey,
      ...(at ? { "x-sandbox-at": at.toISOString() } : {}),
    },
    body: JSON.stringify({ type }),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
}

// A producer of its own (`prod_statement`, sandbox/README.md): the comparison covers its whole balance, which the
// suite's other specs, selling on the demo producer beside this one, would disturb.
test("sales, a boleto, a refund, a chargeback (some dated in the past) and a console transfer: after “Informar saldo do gateway” the page equals the sandbox to the cent", async ({
  adminPage: page,
}) => {
  test.setTimeout(240_000);
  const keys = { publicKey: "pk_sandbox_statement", secretKey: "sk_sandbox_statement" };
  const account = await addAccount(page, `Extrato ${randomUUID().slice(0, 4)}`, { ...keys, webhookToken: "wht_sandbox_statement" });
  const control = createSandboxControl({ baseUrl: E2E.sandboxUrl, ...keys });
  await control.setWebhookUrl(webhookUrl(account));
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

  // Before the reading: a card sale 40 days ago (released at D+30), a boleto paid 3 days ago and refunded yesterday,
  // a card sale 5 days ago charged back today (before its release), and a Pix sale now (released at once).
  const { transactionId: oldCard } = await gatewaySale(keys, "card", 310.4, daysAgo(40));
  const { transactionId: boleto } = await gatewaySale(keys, "boleto", 150, daysAgo(4));
  await transition(keys, boleto, "pay", daysAgo(3));
  await transition(keys, boleto, "refund", daysAgo(1));
  const { transactionId: chargedBack } = await gatewaySale(keys, "card", 99.9, daysAgo(5));
  await transition(keys, chargedBack, "chargeback");
  const { transactionId: pix } = await gatewaySale(keys, "pix", 87.6);
  await transition(keys, pix, "pay");
  const references = [oldCard, boleto, chargedBack, pix];

  // Transfers made at the sandbox (not by the console) leave R$ 2.000,00 available, so a transfer above the balance can be
  // tried below the sandbox's R$ 1.000.000,00 per transfer. They come before the reading, which they are part of.
  for (let { available } = await sandboxBalance(keys); available > 200_000 + 100; { available } = await sandboxBalance(keys)) {
    const response = await fetch(`${E2E.sandboxUrl}/api/v1/gateway/transfers`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey },
      body: JSON.stringify({
        identifier: `e2e-extrato-drain-${randomUUID().slice(0, 8)}`,
        amount: Math.min(99_999_999, available - 200_000) / 100,
        callbackUrl: "http://127.0.0.1:9/transfers",
        pix: { type: "cpf", key: "52998224725" },
        owner: { ip: "200.1.2.3", name: "Joao da Silva", document: { type: "cpf", number: "52998224725" } },
      }),
    });
    expect(response.status, await response.text()).toBeLessThan(300);
  }

  // The console learns them from the notifications, each confirmed by a lookup.
  const statementCsv = async () => {
    await page.goto(`/${account}/balance?from=${saoPaulo(daysAgo(45)).day}&to=${saoPaulo(new Date()).day}`);
    return (await downloadStatement(page)).text.split("\r\n").slice(1, -1);
  };
  const kindsOf = (lines: string[], reference: string) =>
    new Set(lines.filter((line) => line.includes(`"${reference}"`)).map((line) => line.split(";")[3]));
  await expect(async () => {
    const lines = await statementCsv();
    expect(kindsOf(lines, oldCard)).toEqual(new Set(["sale", "fee", "release"]));
    expect(kindsOf(lines, boleto)).toEqual(new Set(["sale", "fee", "release", "refund"]));
    expect(kindsOf(lines, chargedBack)).toEqual(new Set(["sale", "fee", "chargeback"]));
    expect(kindsOf(lines, pix)).toEqual(new Set(["sale", "fee", "release"]));
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });

  // The reading is typed to the minute: read it in a minute after every movement above, so none of them counts twice.
  const lastMovement = Date.now();
  await expect
    .poll(() => Math.floor(Date.now() / 60_000), { timeout: 65_000, intervals: [500] })
    .toBeGreaterThan(Math.floor(lastMovement / 60_000));
  const truth = await sandboxBalance(keys);
  const now = saoPaulo(new Date());
  await page.goto(`/${account}/balance`);
  await page.getByTestId("balance-entry-open").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Disponível no gateway").fill((truth.available / 100).toFixed(2).replace(".", ","));
  await dialog.getByLabel("A liberar no gateway").fill((truth.pending / 100).toFixed(2).replace(".", ","));
  await dialog.getByLabel("Data da leitura").fill(now.display);
  await dialog.getByLabel("Hora da leitura (hh:mm)").fill(now.time);
  await dialog.getByRole("button", { name: "Salvar saldo" }).click();
  await expect(dialog).toBeHidden();

  // After the reading: a card sale now (released in 30 days) and a Pix transfer made in the console.
  const { transactionId: newCard, fee: newCardFee } = await gatewaySale(keys, "card", 123.45);
  const identifier = await fillTransfer(
    page,
    { amountDigits: "2500", key: "recebedor@example.com", ownerName: "Ana Lima", cpf: "52998224725" },
    account,
  );
  await page.getByRole("button", { name: "Confirmar e continuar" }).click();
  await page.getByRole("dialog").getByLabel("Sua senha").fill(E2E.admin.password);
  await page.getByRole("dialog").getByRole("button", { name: "Autorizar e enviar" }).click();
  await expect(page).toHaveURL(/\/transfers\/[0-9a-f-]{36}$/);
  const withdrawId = await page.locator("[data-withdraw-id]").getAttribute("data-withdraw-id");
  await control.completeWithdraw(withdrawId!);
  await expect(page.getByTestId("transfer-status")).toContainText("Concluída", { timeout: 20_000 });

  await expect(async () => {
    const after = await sandboxBalance(keys);
    await page.goto(`/${account}/balance`);
    expect(centsOf(await page.getByTestId("balance-available-value").innerText())).toBe(after.available);
    expect(centsOf(await page.getByTestId("balance-pending-value").innerText())).toBe(after.pending);
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });

  // The new card sale's release: on its São Paulo day of the calendar, its net (amount − fee, as the gateway told it).
  // The creation answer told the fee; the lookup tells availableAt.
  const lookup = await fetch(`${E2E.sandboxUrl}/api/v1/gateway/transactions?id=${newCard}`, {
    headers: { "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey },
  });
  const card = (await lookup.json()) as { availableAt: string };
  const net = 12_345 - Math.round(newCardFee * 100);
  const releaseDay = page.locator(`[data-testid="release-day"][data-day="${saoPaulo(new Date(String(card.availableAt))).day}"]`);
  await expect(releaseDay.locator('[data-col="amount"]')).toHaveText(new RegExp(`R\\$\\s?${(net / 100).toFixed(2).replace(".", ",")}`));

  // The extrato's CSV lists every one of these movements, the transfer and its fee included.
  const lines = await statementCsv();
  expect(kindsOf(lines, newCard)).toEqual(new Set(["sale", "fee"]));
  for (const reference of references) expect(kindsOf(lines, reference).size).toBeGreaterThan(2);
  expect(lines.filter((line) => line.includes(withdrawId!) || line.includes(identifier)).map((line) => line.split(";")[3])).toEqual(
    expect.arrayContaining(["transfer", "transfer_fee"]),
  );

  // A transfer above the estimated balance: warned before sending, and the gateway's refusal reads in words.
  await fillTransfer(page, { amountDigits: "500000", key: "recebedor@example.com", ownerName: "Ana Lima", cpf: "52998224725" }, account);
  await expect(page.getByTestId("balance-warning").first()).toBeVisible();
  await page.getByRole("button", { name: "Confirmar e continuar" }).click();
  await page.getByRole("dialog").getByLabel("Sua senha").fill(E2E.admin.password);
  await page.getByRole("dialog").getByRole("button", { name: "Autorizar e enviar" }).click();
  await expect(page.getByTestId("transfer-refusal")).toContainText("falta de saldo disponível");
  await expect(page).toHaveURL(/\/transfers\/new/);
  await shoot(page, "transfer-above-balance");
});
