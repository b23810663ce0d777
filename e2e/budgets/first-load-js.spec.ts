import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";
import { expectResult, fillCustomer, openChargeForm, sandboxControl, submit } from "../fixtures/charges";
import { E2E } from "../fixtures/env";

/**
 * The heaviest page may download at most this much JavaScript (gzip) on a first visit. Next.js and
 * React alone are about 133 KB; the shell brings the overview to about 162 KB, and the heaviest
 * pages (the form pages, with react-hook-form) are about 194 KB. Menus, selects, dialogs, popovers
 * and tooltips load their radix code when first wanted, a form's zod schema when the form is first
 * used, and the feed's polling code only when the stream falls back to polling; none of that is
 * in a first visit. `scripts/bench/bundle-composition.mjs` shows what each page is made of, and
 * every page is reported here.
 */
const BUDGET_KB = 200;

/** Every script a first visit downloads from the console, gzip-compressed as a server would send it. */
async function firstLoadJs(page: Page, path: string): Promise<number> {
  const sizes = new Map<string, number>();
  const collect = async (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() !== "script" || !response.url().startsWith(E2E.baseUrl)) return;
    try {
      sizes.set(response.url(), gzipSync(await response.body()).length);
    } catch {
      // a script cut off by navigation is not part of the page
    }
  };
  page.on("response", collect);
  await page.goto("about:blank");
  await page.context().clearCookies({ name: "__nothing__" });
  await page.goto(path, { waitUntil: "load" });
  // Scripts the page asks for while it hydrates count too (a live stream never lets the network go idle).
  await page.waitForTimeout(1_000);
  page.off("response", collect);
  return [...sizes.values()].reduce((sum, n) => sum + n, 0);
}

test("first-load JavaScript per page stays under the budget", async ({ adminPage: page }) => {
  test.setTimeout(180_000);
  const accountId = await demoAccountId(page);
  // A charge of its own: its result page (QR code, live updates), then, paid, its transaction page with the refund dialog.
  await openChargeForm(page, "pix", accountId);
  await page.getByLabel("Valor (R$)").fill("12,34");
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  const chargePath = new URL(page.url()).pathname;
  const ledgerId = chargePath.split("/").pop()!;
  const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();
  const routes = [
    "/",
    `/${accountId}/transactions`,
    `/${accountId}/charges/new/pix`,
    `/${accountId}/charges/new/card`,
    `/${accountId}/transfers/new`,
    `/${accountId}/payouts/new`,
    `/${accountId}/sales`,
    `/${accountId}/subscriptions`,
    `/${accountId}/checkout-links/new`,
    "/activity",
    "/accounts",
    "/admin/users",
    `/${accountId}/charges/new`,
    chargePath,
    `/${accountId}/transactions/${ledgerId}`,
  ];
  const figures: [string, number][] = [];
  for (const route of routes) {
    if (route === `/${accountId}/transactions/${ledgerId}`) {
      await sandboxControl().event(transactionId, "pay");
      await page.goto(route);
      await expect(page.getByRole("button", { name: "Pedir reembolso" })).toBeVisible({ timeout: 15_000 });
    }
    // A fresh page: nothing cached from the previous route.
    const fresh = await page.context().newPage();
    await fresh.goto("/");
    figures.push([route, await firstLoadJs(fresh, route)]);
    await fresh.close();
  }
  const table = figures
    .map(
      ([route, bytes]) => `${(bytes / 1024).toFixed(1).padStart(7)} KB  ${route.replace(accountId, "[account]").replace(ledgerId, "[id]")}`,
    )
    .join("\n");
  console.log(`first-load JS (gzip) per page, budget ${BUDGET_KB} KB:\n${table}`);
  const heaviest = Math.max(...figures.map(([, bytes]) => bytes));
  expect(heaviest / 1024, table).toBeLessThan(BUDGET_KB);
});
