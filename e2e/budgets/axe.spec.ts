import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";

/** Every page a person can open, by its address (account pages under the demo account). */
function pages(accountId: string): string[] {
  return [
    "/",
    `/${accountId}`,
    `/${accountId}/charges/new`,
    `/${accountId}/charges/new/pix`,
    `/${accountId}/charges/new/card`,
    `/${accountId}/charges/new/boleto`,
    `/${accountId}/charges/new/crypto`,
    `/${accountId}/charges/new/deposit`,
    `/${accountId}/charges/new/pix-subscription`,
    `/${accountId}/checkout-links/new`,
    `/${accountId}/transfers/new`,
    `/${accountId}/refunds/new`,
    `/${accountId}/transactions`,
    `/${accountId}/transactions/unconfirmed`,
    `/${accountId}/lookup`,
    `/${accountId}/transfers`,
    `/${accountId}/payouts`,
    `/${accountId}/payouts/new`,
    `/${accountId}/sales`,
    `/${accountId}/sales/origin`,
    `/${accountId}/sales/recovery`,
    `/${accountId}/subscriptions`,
    `/${accountId}/refunds`,
    `/${accountId}/checkout-links`,
    "/activity",
    `/${accountId}/webhooks`,
    `/${accountId}/producer`,
    "/accounts",
    `/accounts/${accountId}`,
    "/admin/users",
    "/admin/audit",
    "/profile",
    "/profile/password",
  ];
}

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

/** Pages per test: the groups spread over both workers and each stays well inside its timeout. */
const GROUP_SIZE = 7;

test.describe("accessibility budget: axe finds no serious or critical violation", () => {
  const groupCount = Math.ceil(pages("account").length / GROUP_SIZE);
  for (let group = 0; group < groupCount; group++) {
    test(`on every console page, signed in as an administrator (group ${group + 1} of ${groupCount})`, async ({ adminPage: page }) => {
      test.setTimeout(180_000);
      const accountId = await demoAccountId(page);
      const found: Record<string, string[]> = {};
      for (const path of pages(accountId).slice(group * GROUP_SIZE, (group + 1) * GROUP_SIZE)) {
        // Pages with a live stream never go network-idle: wait for the document and a moment of hydration.
        await page.goto(path, { waitUntil: "load" });
        await page.locator("main").waitFor();
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[path] = violations;
      }
      expect(found).toEqual({});
    });
  }

  test("on the sign-in page", async ({ page }) => {
    await page.goto("/sign-in");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
