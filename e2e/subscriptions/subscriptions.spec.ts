import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";
import { DEMO_KEYS, DEMO_TOKEN, demoAccountId, demoClient, sandboxControl, webhookUrl } from "../fixtures/sandbox";
import { E2E } from "../fixtures/env";
import { addAccount } from "../transactions/helpers";

const DAY = 86_400_000;

/** A subscription made at the sandbox as the producer's own backend would, dated `at` (the sandbox's test header). */
async function subscribe(request: APIRequestContext, kind: "pix" | "card", body: Record<string, unknown>, at: Date) {
  const response = await request.post(`${E2E.sandboxUrl}/api/v1/gateway/${kind}/subscription`, {
    headers: { "x-public-key": DEMO_KEYS.publicKey, "x-secret-key": DEMO_KEYS.secretKey, "x-sandbox-at": at.toISOString() },
    data: body,
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as { subscriptionId: string; transactionId: string | null };
}

/** The row of a subscription in the list, by its identifier. */
const row = (page: Page, identifier: string) => page.getByTestId(`subscription-row-${identifier}`);

test("a monthly Pix and a monthly card subscription dated 35 days back, once the sandbox caught up", async ({ adminPage: page }) => {
  // An account of its own (the demo producer's keys, its own callback address), so its figures are this test's alone.
  const accountId = await addAccount(page, `Assinaturas ${randomUUID().slice(0, 6)}`, { ...DEMO_KEYS, webhookToken: DEMO_TOKEN });
  const run = randomUUID().slice(0, 8);
  const at = new Date(Date.now() - 35 * DAY);
  const common = { client: demoClient, subscription: { periodicityType: "MONTHS", periodicity: 1 }, callbackUrl: webhookUrl(accountId) };
  const pix = `sub-pix-${run}`;
  const card = `sub-card-${run}`;
  await subscribe(
    page.request,
    "pix",
    { ...common, identifier: pix, amount: 49.9, product: { id: "clube", name: "Clube do livro", price: 49.9 } },
    at,
  );
  await subscribe(
    page.request,
    "card",
    {
      ...common,
      identifier: card,
      amount: 97,
      clientIp: "203.0.113.9",
      card: { number: "4111111111111111", owner: "MARIA SOUZA", expiresAt: "2031-08", cvv: "123" },
      product: { id: "mentoria", name: "Mentoria", price: 97 },
    },
    at,
  );
  const caughtUp = await sandboxControl().advanceClock(0);
  const pixRenewal = caughtUp.charges.find((charge) => charge.identifier === pix);
  expect(pixRenewal, "the Pix renewal made on catching up").toBeTruthy();

  await page.goto(`/${accountId}/subscriptions`);
  // The console hears of them through notifications confirmed by the gateway's lookups: it settles within seconds.
  await expect(async () => {
    await page.reload();
    await expect(row(page, card).getByTestId("subscription-state")).toHaveAttribute("data-state", "active", { timeout: 1_000 });
    await expect(row(page, card).getByTestId("subscription-paid")).toContainText("2 pagas", { timeout: 1_000 });
    await expect(row(page, pix).getByTestId("subscription-state")).toHaveAttribute("data-state", /^(awaiting_payment|overdue)$/, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(row(page, pix).getByTestId("subscription-state")).toContainText(/aguardando pagamento|em atraso há \d+ dias/);
  await expect(row(page, pix).getByTestId("subscription-gateway-status")).toHaveText("ACTIVE");
  await expect(page.getByTestId("subscriptions-mrr-value")).toHaveText("R$ 146,90");

  // The card subscription's page: its two charges, paid, in order; and what the console cannot do.
  await row(page, card).getByRole("link").first().click();
  await expect(page.getByTestId("subscription-charge")).toHaveCount(2);
  await expect(page.locator('[data-testid="subscription-charge"][data-paid="yes"]')).toHaveCount(2);
  await expect(page.getByTestId("subscription-cannot")).toContainText(
    "Cancelar esta assinatura, trocar o cartão ou tentar a cobrança de novo",
  );

  await test.step("the unpaid renewal is in the recovery worklist", async () => {
    // Dated at its due instant, days ago: past the list's Pix delay (15 minutes by default) and within its 30 days.
    await page.goto(`/${accountId}/sales/recovery`);
    const renewal = page.locator(`[data-testid="recovery-row"][data-identifier^="${pix}-"]`);
    await expect(renewal).toHaveCount(1);
    await expect(renewal.getByTestId("recovery-renewal").first()).toContainText("Renovação nº 1");
    await expect(renewal.getByTestId("recovery-renewal-subscription").first()).toHaveAttribute(
      "href",
      new RegExp(`/${accountId}/subscriptions/[^/]+$`),
    );
    await expect(renewal.getByTestId("recovery-amount")).toHaveText("R$ 49,90");
    // The card subscription's renewal was paid: not on the list.
    await expect(page.locator(`[data-testid="recovery-row"][data-identifier^="${card}-"]`)).toHaveCount(0);

    // Its message is the account's renewal template, with the renewal's amount.
    await renewal.getByTestId("recovery-message").click();
    await expect(page.getByTestId("recovery-message-text")).toHaveValue(/renovação da sua assinatura de .+, no valor de R\$\s49,90/);
    await page.keyboard.press("Escape");
    // Nova cobrança: a Pix of the same account, prefilled from the renewal and naming it.
    await renewal.getByTestId("recovery-new-charge").click();
    await expect(page).toHaveURL(new RegExp(`/${accountId}/charges/new/pix\\?from=`));
    await expect(page.getByTestId("prefill-notice")).toHaveAttribute("data-state", "renewal");
    await expect(page.getByTestId("prefill-notice")).toContainText("Nova cobrança para a renovação nº 1");
    await expect(page.getByTestId("account-banner")).toBeVisible();
    await expect(page.getByLabel("Valor (R$)")).toHaveValue("49,90");
    await expect(page.getByTestId("metadata-0").getByLabel("Valor")).toHaveValue(pixRenewal!.transactionId);
  });

  // The Pix renewal paid at the sandbox: the subscription reads active within seconds.
  await sandboxControl().event(pixRenewal!.transactionId, "pay");
  await page.goto(`/${accountId}/subscriptions?q=${encodeURIComponent(demoClient.name)}&method=PIX`);
  await expect(async () => {
    await page.reload();
    await expect(row(page, pix).getByTestId("subscription-state")).toHaveAttribute("data-state", "active", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
});

test("unauthorized access: another account's subscriptions and their export are refused; a viewer cannot change the rules", async ({
  browser,
  adminPage,
}) => {
  const hidden = await addAccount(adminPage, `Assinaturas ocultas ${randomUUID().slice(0, 6)}`, { ...DEMO_KEYS, webhookToken: DEMO_TOKEN });
  // A viewer of the demo account only.
  const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
  const page = await signedInPage(browser, viewer);
  await page.goto(`/${hidden}/subscriptions`);
  await expect(page.getByRole("heading", { name: "Assinaturas" })).toHaveCount(0);
  const exported = await page.request.get(`/${hidden}/subscriptions/export`, { maxRedirects: 0 });
  expect(exported.status()).toBe(403);

  const demo = await demoAccountId(page);
  await page.goto(`/${demo}/subscriptions`);
  await expect(page.getByRole("heading", { name: "Assinaturas", level: 1 })).toBeVisible();
  await expect(page.getByTestId("subscription-rules")).toHaveCount(0);
  expect((await page.request.get(`/${demo}/subscriptions/export`)).status()).toBe(200);
  await page.context().close();
});
