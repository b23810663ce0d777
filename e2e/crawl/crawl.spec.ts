import { mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { startReceiver } from "../../lib/testing/webhook-receiver";
import { expectResult, fillCustomer, openChargeForm, sandboxControl, submit } from "../fixtures/charges";
import { demoAccountId } from "../fixtures/sandbox";
import { createUserAsAdmin, expect, signedInPage, switchToEnglish, test } from "../fixtures/test";
import { E2E } from "../fixtures/env";
import { notifyTransactions } from "../transactions/helpers";
import { fillTransfer, paidChargeAtSandbox } from "../payouts/helpers";
import { seedPastCharges } from "../sales/recovery-helpers";

/**
 * Every page of the menu and one detail page of each kind, after demo-like data exists: no raw
 * code in the words a person reads (pt-BR and English), no English in pt-BR, and no page wider
 * than a 390 px phone. Screenshots of each page at 1440 and 390 px (pt-BR) land in
 * test-results/screens/ for a person to look at.
 */

const SCREENS = "test-results/screens";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

/** Codes of the gateway and the console: SNAKE_CASE, snake_case, dotted audit actions, and method codes. */
const RAW_PATTERNS = [
  /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/g,
  /\b[a-z]+(?:_[a-z]+)+\b/g,
  // Two letters at least on each side of the dot: "e.g." is English, "auth.sign_in" a code.
  /\b[a-z]{2,}\.[a-z_]{2,}\b/g,
  /\b(?:PIX|BOLETO|CREDIT_CARD|CRYPTO)\b/g,
];

/**
 * What may look like a code and is not one: the UTM parameter names producers write in their own
 * links (the sales origin report names them), and file names offered for download.
 */
const ALLOWED = [/^utm_(?:source|medium|campaign|content|term)$/, /^[a-z]+\.(?:json|csv|xlsx|pdf|png)$/];

/** English words that are not also Portuguese words or loan words the console uses (webhook, link, checkout, token…). */
const ENGLISH_WORDS = [
  "the",
  "and",
  "with",
  "from",
  "your",
  "this",
  "that",
  "have",
  "has",
  "been",
  "will",
  "would",
  "should",
  "could",
  "which",
  "when",
  "where",
  "there",
  "their",
  "what",
  "into",
  "only",
  "other",
  "about",
  "after",
  "before",
  "never",
  "always",
  "than",
  "these",
  "those",
  "are",
  "were",
  "because",
  "while",
  "without",
  "please",
  "failed",
  "received",
  "pending",
  "completed",
  "paid",
  "payment",
  "refund",
  "transfer",
  "settings",
  "unknown",
];
const ENGLISH = new RegExp(`(?<![\\p{L}\\d_-])(?:${ENGLISH_WORDS.join("|")})(?![\\p{L}\\d_-])`, "giu");

type Visit = { name: string; path: string; then?: (page: Page) => Promise<void> };

/** The visible text nodes a person reads (screen-reader-only text included), without raw sections. */
async function readableText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const skipped = (element: Element | null): boolean => {
      for (let node = element; node; node = node.parentElement) {
        const tag = node.tagName;
        if (tag === "PRE" || tag === "SCRIPT" || tag === "STYLE" || tag === "NOSCRIPT" || tag === "TEMPLATE") return true;
        if (node.hasAttribute("data-raw")) return true;
        // A closed <details> shows only its summary.
        if (node.parentElement?.tagName === "DETAILS" && !(node.parentElement as HTMLDetailsElement).open && tag !== "SUMMARY") return true;
        const style = getComputedStyle(node);
        if (style.display === "none" || style.visibility === "hidden") return true;
      }
      return false;
    };
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && !skipped(node.parentElement)) out.push(text);
    }
    return out;
  });
}

function rawCodesIn(texts: string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    const cleaned = text
      .replace(/\bhttps?:\/\/\S+/g, " ")
      .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, " ")
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, " ");
    for (const pattern of RAW_PATTERNS)
      for (const [token] of cleaned.matchAll(pattern))
        if (!ALLOWED.some((allowed) => allowed.test(token))) found.add(`${token} in “${text.slice(0, 80)}”`);
  }
  return [...found];
}

function englishIn(texts: string[]): string[] {
  const found = new Set<string>();
  for (const text of texts)
    for (const [word] of text.replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, " ").matchAll(ENGLISH))
      found.add(`${word} in “${text.slice(0, 80)}”`);
  return [...found];
}

/** The innermost elements that reach past the viewport's right edge, to say what makes a page too wide. */
async function widest(page: Page): Promise<string> {
  return page.evaluate(() => {
    const past = (element: Element) => element.getBoundingClientRect().right > window.innerWidth + 1;
    return [...document.body.querySelectorAll("*")]
      .filter((element) => past(element) && ![...element.children].some(past) && (element as HTMLElement).offsetParent !== null)
      .slice(0, 3)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 4).join(".")} “${element.textContent?.trim().slice(0, 40)}”`,
      )
      .join("; ");
  });
}

async function settle(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.locator("main").first()).toBeVisible();
  // Deferred parts (selects, live lists) draw after the first paint; charts when they come near the screen.
  await page.waitForTimeout(400);
  await scrollThrough(page);
}

/** Brings every part of the page near the screen once, so that what loads on sight (charts) is drawn. */
async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 600) await page.evaluate((top) => window.scrollTo(0, top), y);
  await page.waitForTimeout(300);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Visits every page at a phone's and a desktop's width; returns what is wrong, page by page. */
async function crawl(page: Page, visits: Visit[], { locale, screens }: { locale: "pt-BR" | "en"; screens: boolean }): Promise<string[]> {
  const problems: string[] = [];
  if (screens) mkdirSync(SCREENS, { recursive: true });
  for (const visit of visits) {
    await page.setViewportSize(PHONE);
    const response = await page.goto(visit.path);
    expect(response?.status(), `${visit.name} (${visit.path}) answers`).toBeLessThan(400);
    await settle(page);
    if (visit.then) await visit.then(page);
    for (const [label, size] of [
      ["390", PHONE],
      ["1440", DESKTOP],
    ] as const) {
      await page.setViewportSize(size);
      await page.waitForTimeout(250);
      await scrollThrough(page);
      const texts = await readableText(page);
      for (const code of rawCodesIn(texts)) problems.push(`${locale} ${visit.name} @${label}: raw code ${code}`);
      if (locale === "pt-BR") for (const word of englishIn(texts)) problems.push(`${locale} ${visit.name} @${label}: English ${word}`);
      const cutBadges = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[data-slot="badge"]')]
          .filter((badge) => badge.offsetParent !== null && badge.scrollWidth > badge.clientWidth + 1)
          .map((badge) => badge.textContent?.trim() ?? ""),
      );
      for (const badge of cutBadges) problems.push(`${locale} ${visit.name} @${label}: badge cut “${badge}”`);
      if (label === "390") {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > PHONE.width) problems.push(`${locale} ${visit.name}: ${width} px wide at 390 px (${await widest(page)})`);
      }
      if (screens) await page.screenshot({ path: `${SCREENS}/${visit.name}-${label}.png`, fullPage: true });
    }
  }
  return problems;
}

type Demo = {
  accountId: string;
  chargeId: string;
  ledgerId: string;
  identifier: string;
  transferId: string;
  batchId: string;
  checkoutLinkId: string;
  destinationId: string;
  eventId: string;
};

let demo: Demo | undefined;

/** Demo-like data, made as a producer would: through the console's forms and the sandbox's own rails. */
async function makeDemo(page: Page): Promise<Demo> {
  const accountId = await demoAccountId(page);
  const receiver = await startReceiver(() => null);
  try {
    // A destination listening to everything, so the events below are delivered somewhere.
    await page.goto(`/${accountId}/destinations/new`);
    await page.getByLabel("Endereço (URL)").fill(receiver.url);
    await page.getByLabel("Descrição").fill("Área de membros");
    await page.getByRole("button", { name: "Criar destino" }).click();
    await expect(page.getByTestId("destination-secret")).toBeVisible();
    await page.getByRole("link", { name: "Abrir o destino" }).click();
    await page.waitForURL(/\/destinations\/[0-9a-f-]{36}$/);
    const destinationId = page.url().split("/").pop()!;

    // A Pix charge made in the console, paid at the sandbox.
    const identifier = await openChargeForm(page, "pix", accountId);
    await page.getByLabel("Valor (R$)").fill("97,00");
    await fillCustomer(page);
    await submit(page);
    await expectResult(page);
    const chargeId = page.url().split("/").pop()!;
    const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();
    await sandboxControl().event(transactionId, "pay");
    await expect(page.getByTestId("gateway-status")).toHaveText("Pago", { timeout: 20_000 });

    // Sales the console learns of from the gateway's notifications: a card approved and one declined, a boleto, a refund.
    const tag = randomUUID().slice(0, 6);
    await notifyTransactions(page.request, accountId, [
      { status: "COMPLETED", method: "CREDIT_CARD", amount: 297, name: `Beatriz Lima ${tag}`, email: `beatriz.${tag}@example.com` },
      { status: "FAILED", method: "CREDIT_CARD", amount: 49.9, name: `Carlos Dias ${tag}`, email: `carlos.${tag}@example.com` },
      { status: "PENDING", method: "BOLETO", amount: 150, name: `Daniela Rocha ${tag}`, email: `daniela.${tag}@example.com` },
      { status: "REFUNDED", method: "PIX", amount: 35, name: `Eduardo Alves ${tag}`, email: `eduardo.${tag}@example.com` },
    ]);

    // Unpaid charges old enough for the recovery list.
    await seedPastCharges(page.request, accountId, [
      { method: "PIX", amount: 297, name: "Carla Mendes", phone: "11991234567", product: "Curso de confeitaria", ageMinutes: 60 },
      { method: "BOLETO", amount: 189.9, name: "Rafael Nunes", phone: "21988887777", ageMinutes: 3 * 24 * 60 },
    ]);

    // A refund request for a paid charge.
    const refundable = await paidChargeAtSandbox(page, 42);
    await page.goto(`/${accountId}/refunds/new`);
    await page.getByLabel("ID da transação no gateway").fill(refundable);
    await page.getByRole("combobox", { name: "Motivo" }).click();
    await page.getByRole("option", { name: "Cobrança em duplicidade" }).click();
    await page.getByRole("button", { name: "Enviar pedido" }).click();
    await expect(page).toHaveURL(/\/refunds$/);

    // A Pix transfer through both confirmations.
    await fillTransfer(page, undefined, accountId);
    await page.getByRole("button", { name: "Confirmar e continuar" }).click();
    await page.getByRole("dialog").getByLabel("Sua senha").fill(E2E.admin.password);
    await page.getByRole("dialog").getByRole("button", { name: "Autorizar e enviar" }).click();
    await expect(page).toHaveURL(/\/transfers\/[0-9a-f-]{36}$/);
    const transferId = page.url().split("/").pop()!;

    // A payout batch, pasted and checked.
    await page.goto(`/${accountId}/payouts/new`);
    await page.getByRole("tab", { name: "Colar linhas" }).click();
    await page
      .getByLabel("Linhas copiadas da planilha")
      .fill(
        `chave_pix;valor;nome;documento\nana.${tag}@exemplo.com.br;120,00;Ana Prado;529.982.247-25\nbruno.${tag}@exemplo.com.br;80,50;Bruno Reis;111.444.777-35`,
      );
    await page.getByRole("button", { name: "Carregar e validar" }).click();
    await expect(page).toHaveURL(/\/payouts\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const batchId = page.url().split("/").pop()!;

    // A checkout link.
    await page.goto(`/${accountId}/checkout-links/new`);
    await page.getByLabel("Nome do produto").fill(`Curso de confeitaria ${tag}`);
    await page.getByLabel("Nome da oferta").fill("Oferta de lançamento");
    await page.getByLabel("Preço").fill("9700");
    await page.getByRole("button", { name: "Criar link" }).click();
    await expect(page).toHaveURL(/\/checkout-links\/[0-9a-f-]{36}$/);
    const checkoutLinkId = page.url().split("/").pop()!;

    // The charge's events reached the destination.
    await expect(async () => expect(receiver.received.length).toBeGreaterThan(0)).toPass({ timeout: 20_000 });

    // A webhook delivery the console received (the paid charge's).
    await page.goto("/activity");
    const row = page.locator(`[data-testid="feed-row"][data-transaction-id="${transactionId}"]`).first();
    await expect(row).toBeVisible({ timeout: 15_000 });
    const eventId = (await row.getAttribute("data-event-id"))!;

    // Paused once the demo is made: the rest of a suite's events wait in its queue instead of failing against a closed receiver.
    await page.goto(`/${accountId}/destinations/${destinationId}`);
    await page.getByRole("button", { name: "Pausar" }).click();
    await expect(page.getByRole("button", { name: "Retomar" })).toBeVisible();

    await page.goto(`/${accountId}/transactions?q=${identifier}`);
    const href = await page.getByTestId("transaction-row").getByRole("link").first().getAttribute("href");
    const ledgerId = href!.split("/").pop()!;
    return { accountId, chargeId, ledgerId, identifier, transferId, batchId, checkoutLinkId, destinationId, eventId };
  } finally {
    await receiver.close();
  }
}

function visitsOf(d: Demo): Visit[] {
  const a = (path: string) => `/${d.accountId}${path}`;
  return [
    { name: "home", path: a("") },
    { name: "charges-new", path: a("/charges/new") },
    { name: "charges-new-pix", path: a("/charges/new/pix") },
    { name: "charges-new-card", path: a("/charges/new/card") },
    { name: "charges-new-boleto", path: a("/charges/new/boleto") },
    { name: "charge", path: a(`/charges/${d.chargeId}`) },
    { name: "sales", path: a("/sales") },
    { name: "sales-origin", path: a("/sales/origin") },
    { name: "sales-recovery", path: a("/sales/recovery") },
    { name: "transactions", path: a("/transactions") },
    { name: "transaction", path: a(`/transactions/${d.ledgerId}`) },
    { name: "transactions-unconfirmed", path: a("/transactions/unconfirmed") },
    {
      name: "lookup",
      path: a("/lookup"),
      then: async (page) => {
        await page.getByRole("radio", { name: /^(Identificador|Identifier)$/ }).click();
        await page.getByLabel(/^(Valor a buscar|Value to look for)$/).fill(d.identifier);
        await page.getByRole("button", { name: /^(Consultar|Look up)$/ }).click();
        await expect(page.getByTestId("lookup-result")).toBeVisible();
      },
    },
    { name: "transfers", path: a("/transfers") },
    { name: "transfers-new", path: a("/transfers/new") },
    { name: "transfer", path: a(`/transfers/${d.transferId}`) },
    { name: "balance", path: a("/balance") },
    { name: "subscriptions", path: a("/subscriptions") },
    { name: "payouts", path: a("/payouts") },
    { name: "payouts-new", path: a("/payouts/new") },
    { name: "payout-batch", path: a(`/payouts/${d.batchId}`) },
    { name: "refunds", path: a("/refunds") },
    { name: "refunds-new", path: a("/refunds/new") },
    { name: "checkout-links", path: a("/checkout-links") },
    { name: "checkout-links-new", path: a("/checkout-links/new") },
    { name: "checkout-link", path: a(`/checkout-links/${d.checkoutLinkId}`) },
    { name: "activity", path: "/activity" },
    { name: "activity-event", path: `/activity/${d.eventId}` },
    { name: "webhooks", path: a("/webhooks") },
    { name: "destinations", path: a("/destinations") },
    { name: "destinations-new", path: a("/destinations/new") },
    { name: "destination", path: a(`/destinations/${d.destinationId}`) },
    { name: "producer", path: a("/producer") },
    { name: "accounts", path: "/accounts" },
    { name: "account", path: `/accounts/${d.accountId}` },
    { name: "admin-users", path: "/admin/users" },
    { name: "admin-audit", path: "/admin/audit" },
    { name: "profile", path: "/profile" },
    { name: "profile-password", path: "/profile/password" },
    { name: "profile-security", path: "/profile/security" },
  ];
}

test.describe.serial("the crawl", () => {
  test.setTimeout(900_000);
  // A long test of many short steps: one that cannot find its element fails in seconds, not at the test's end.
  test.use({ actionTimeout: 20_000 });

  test("in pt-BR, every page reads as words, in Portuguese, and fits a phone", async ({ adminPage: page }) => {
    demo ??= await makeDemo(page);
    const problems = await crawl(page, visitsOf(demo), { locale: "pt-BR", screens: true });
    expect(problems).toEqual([]);
  });

  test("in English, no page shows a raw code", async ({ browser, adminPage }) => {
    demo ??= await makeDemo(adminPage);
    const user = await createUserAsAdmin(adminPage, { role: "admin" });
    const page = await signedInPage(browser, user);
    await switchToEnglish(page, user.name);
    const problems = await crawl(page, visitsOf(demo), { locale: "en", screens: false });
    await page.context().close();
    expect(problems).toEqual([]);
  });
});
