import { createServer } from "node:net";
import { chromium, type Page } from "@playwright/test";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { expect, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";
import { CUSTOMER, expectResult, fillCustomer, openChargeForm, submit } from "../fixtures/charges";
import { E2E } from "../fixtures/env";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/chromium.mjs";

/** The pages a producer meets first, measured as a desktop browser loads them from `next start`. */
const BUDGET = { performance: 90, accessibility: 95 };
/**
 * Each page is measured this many times and its best performance score is held to the budget
 * (Lighthouse CI's "optimistic" aggregation); the median is printed beside it. Other load on the
 * machine only ever lowers a score: on a busy 2-core machine one page's runs spread from 78 to 97
 * while the page did not change, whereas what the budget is for (more script, render-blocking
 * work, layout shifts) lowers every run, the best included.
 */
const RUNS = 5;
/** `LIGHTHOUSE_PRESET=mobile` measures with Lighthouse's default mobile emulation and throttling instead. */
const MOBILE = process.env.LIGHTHOUSE_PRESET === "mobile";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function cookieHeader(page: Page): Promise<string> {
  return (await page.context().cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

test.describe.configure({ mode: "serial" });

test("Lighthouse: performance and accessibility budgets on sign-in, overview, transactions, the Pix form and a charge result", async ({
  adminPage: page,
}) => {
  test.setTimeout(600_000);
  const accountId = await demoAccountId(page);
  await openChargeForm(page, "pix", accountId);
  await page.getByLabel("Valor (R$)").fill("42,00");
  await fillCustomer(page, CUSTOMER);
  await submit(page);
  await expectResult(page);
  const resultPath = new URL(page.url()).pathname;
  const cookies = await cookieHeader(page);

  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: findChromium() ?? undefined,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  const scores: Record<string, { performance: number; median: number; accessibility: number; runs: number[]; failing?: string[] }> = {};
  try {
    const targets: Array<[string, boolean]> = [
      ["/sign-in", false],
      ["/", true],
      [`/${accountId}/transactions`, true],
      [`/${accountId}/charges/new/pix`, true],
      [resultPath, true],
    ];
    for (const [path, signedIn] of targets) {
      const runs: { performance: number; accessibility: number; failing: string[] }[] = [];
      for (let attempt = 0; attempt < RUNS; attempt++) {
        const run = await lighthouse(
          `${E2E.baseUrl}${path}`,
          {
            port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance", "accessibility"],
            extraHeaders: { "x-forwarded-for": "10.77.0.1", ...(signedIn ? { Cookie: cookies } : {}) },
          },
          MOBILE ? undefined : desktopConfig,
        );
        const categories = run!.lhr.categories;
        expect(run!.lhr.finalDisplayedUrl, `${path} opened as itself, not a redirect to sign-in`).toContain(path);
        runs.push({
          performance: Math.round((categories.performance.score ?? 0) * 100),
          accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
          failing: categories.accessibility.auditRefs
            .filter((ref) => ref.weight > 0 && run!.lhr.audits[ref.id]?.score === 0)
            .map((ref) => ref.id),
        });
      }
      const performances = runs.map((r) => r.performance).sort((a, b) => a - b);
      // Accessibility does not depend on load: the worst run counts.
      const worst = runs.reduce((a, b) => (b.accessibility < a.accessibility ? b : a));
      scores[path] = {
        performance: performances[performances.length - 1],
        median: performances[Math.floor(performances.length / 2)],
        accessibility: worst.accessibility,
        runs: performances,
      };
      if (worst.failing.length > 0) scores[path].failing = worst.failing;
    }
  } finally {
    await browser.close();
  }
  // The figures go to the CI log whatever the outcome.
  console.log(`Lighthouse (${MOBILE ? "mobile" : "desktop"}): ${JSON.stringify(scores)}`);
  for (const [path, score] of Object.entries(scores)) {
    expect.soft(score.performance, `${path} performance`).toBeGreaterThanOrEqual(BUDGET.performance);
    expect.soft(score.accessibility, `${path} accessibility`).toBeGreaterThanOrEqual(BUDGET.accessibility);
  }
});
