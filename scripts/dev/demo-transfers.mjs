// The demo's Pix transfers. The console counts only the transfers it sent itself (the interface has
// no lookup of a withdraw, so one made elsewhere could never be confirmed), and it sends them only
// through its form, after the user's password. So the demo signs in as a person would, in Chromium,
// and sends them through the form; the sandbox's control API then completes two and fails one (its
// money given back), so Saldo and the extrato show each kind of transfer movement.
import { findChromium, CHROMIUM_ARGS } from "./chromium.mjs";

const TRANSFERS = [
  { digits: "150000", key: "fornecedor@example.com", owner: "Carla Mendes", document: "52998224725", outcome: "complete" },
  { digits: "235000", key: "ana.lima@example.com", owner: "Ana Lima", document: "39053344705", outcome: "complete" },
  { digits: "48000", key: "joao.conceicao@example.com", owner: "Joao da Conceicao", document: "11144477735", outcome: "fail" },
];

/**
 * Sends the demo's transfers through the console's own form, once: a producer that already has
 * withdraws at the sandbox is left as it is. Returns a line for the summary.
 */
export async function demoTransfers({ consoleUrl, accountId, email, password, control }) {
  if (!email || !password) {
    return "transfers: skipped. The console sends transfers only after its user's password: run again with CONSOLE_EMAIL and CONSOLE_PASSWORD (the administrator `npm start` printed) to add three.";
  }
  if (!accountId) return "transfers: skipped, the console's account for the demo producer is unknown.";
  const existing = await control("GET", "/sandbox/v1/withdraws");
  if (existing.json.withdraws.length > 0) return `transfers: the demo producer already has ${existing.json.withdraws.length}; none added.`;
  const executablePath = findChromium();
  if (!executablePath) return "transfers: skipped, no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH).";

  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ locale: "pt-BR" });
    await page.goto(`${consoleUrl}/sign-in`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill(password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: 20_000 }).catch(() => {});
    if (new URL(page.url()).pathname.startsWith("/sign-in")) {
      return "transfers: skipped, the console did not accept CONSOLE_EMAIL / CONSOLE_PASSWORD (or asks for a second factor).";
    }
    const made = [];
    for (const transfer of TRANSFERS) {
      await page.goto(`${consoleUrl}/${accountId}/transfers/new`);
      await page.getByLabel("Valor", { exact: true }).fill(transfer.digits);
      await page.getByLabel("Chave Pix", { exact: true }).fill(transfer.key);
      await page.getByLabel("Nome do titular", { exact: true }).fill(transfer.owner);
      await page.getByLabel("Número do documento", { exact: true }).fill(transfer.document);
      await page.getByRole("button", { name: "Revisar transferência" }).click();
      await page.getByRole("button", { name: "Confirmar e continuar" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Sua senha").fill(password);
      await dialog.getByRole("button", { name: "Autorizar e enviar" }).click();
      await page.waitForURL(/\/transfers\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      const withdrawId = await page.locator("[data-withdraw-id]").getAttribute("data-withdraw-id");
      if (!withdrawId) throw new Error(`the transfer page at ${page.url()} shows no withdraw`);
      await control("POST", `/sandbox/v1/withdraws/${encodeURIComponent(withdrawId)}/${transfer.outcome}`);
      made.push(transfer.outcome === "complete" ? "completed" : "failed (given back)");
    }
    return `transfers: ${made.length} sent through the console (${made.join(", ")})`;
  } finally {
    await browser.close();
  }
}
