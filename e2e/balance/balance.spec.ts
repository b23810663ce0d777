import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";
import { expectResult, fillAddress, fillCard, fillCustomer, openChargeForm, sandboxLookup, submit } from "../fixtures/charges";
import { DEMO_KEYS, demoAccountId, sandboxControl } from "../fixtures/sandbox";
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

// GET /sandbox/v1/balance (the sandbox's own figures) reached main (h-sandbox) after this branch left it, so this test
// has not run here: enable it once both are merged. It compares the whole demo account, so a spec running beside it
// that moves the demo producer's sandbox clock or sells without the console knowing would disturb it.
test.fixme("after entering the sandbox's balance, Disponível and A liberar equal the sandbox's own to the cent", async ({
  adminPage: page,
}) => {
  const truth = async () => {
    const response = await fetch(`${E2E.sandboxUrl}/sandbox/v1/balance`, {
      headers: { "x-public-key": DEMO_KEYS.publicKey, "x-secret-key": DEMO_KEYS.secretKey },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { available: number; pending: number };
  };
  const before = await truth();
  const now = saoPaulo(new Date());
  await page.goto(`/${accountId}/balance`);
  await page.getByTestId("balance-entry-open").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Disponível no gateway").fill(before.available.toFixed(2).replace(".", ","));
  await dialog.getByLabel("A liberar no gateway").fill(before.pending.toFixed(2).replace(".", ","));
  await dialog.getByLabel("Data da leitura").fill(now.display);
  await dialog.getByLabel("Hora da leitura (hh:mm)").fill(now.time);
  await dialog.getByRole("button", { name: "Salvar saldo" }).click();
  await expect(dialog).toBeHidden();
  // A later Pix sale moves both sides alike.
  await openChargeForm(page, "pix", accountId);
  await page.getByLabel("Valor (R$)").fill("40,00");
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  await sandboxControl().event((await page.getByTestId("result-transaction-id").textContent())!.trim(), "pay");
  await expect(async () => {
    const after = await truth();
    await page.goto(`/${accountId}/balance`);
    expect(centsOf(await page.getByTestId("balance-available-value").innerText())).toBe(Math.round(after.available * 100));
    expect(centsOf(await page.getByTestId("balance-pending-value").innerText())).toBe(Math.round(after.pending * 100));
  }).toPass({ timeout: 30_000 });
});
