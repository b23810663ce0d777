import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";
import { E2E } from "../fixtures/env";

/**
 * The heaviest page may download at most this much JavaScript (gzip) on a first visit. The
 * target is 200 KB: Next.js and React alone are about 133 KB and the shell brings the overview to
 * about 199 KB; the form pages carry zod and react-hook-form (about 46 KB). The budget holds the
 * line above today's heaviest page here (about 272 KB; a transaction's page with its refund form, not listed, is about 282 KB); `scripts/bench/bundle-composition.mjs` shows what each
 * page is made of, and every page is reported here.
 */
const BUDGET_KB = 290;

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
  const routes = [
    "/",
    "/transactions",
    `/${accountId}/charges/new/pix`,
    `/${accountId}/charges/new/card`,
    `/${accountId}/transfers/new`,
    `/${accountId}/checkout-links/new`,
    "/activity",
    "/accounts",
    "/admin/users",
  ];
  const figures: [string, number][] = [];
  for (const route of routes) {
    // A fresh page: nothing cached from the previous route.
    const fresh = await page.context().newPage();
    await fresh.goto("/");
    figures.push([route, await firstLoadJs(fresh, route)]);
    await fresh.close();
  }
  const table = figures.map(([route, bytes]) => `${(bytes / 1024).toFixed(1).padStart(7)} KB  ${route.replace(accountId, "[account]")}`).join("\n");
  console.log(`first-load JS (gzip) per page, budget ${BUDGET_KB} KB:\n${table}`);
  const heaviest = Math.max(...figures.map(([, bytes]) => bytes));
  expect(heaviest / 1024, table).toBeLessThan(BUDGET_KB);
});
