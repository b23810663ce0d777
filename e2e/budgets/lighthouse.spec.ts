import { createServer } from "node:net";
import { chromium, type Page } from "@playwright/test";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { throttling } from "lighthouse/core/config/constants.js";
import { expect, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";
import { CUSTOMER, expectResult, fillCustomer, openChargeForm, submit } from "../fixtures/charges";
import { E2E } from "../fixtures/env";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/dev/chromium.mjs";

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
/**
 * Simulated loads replay the CPU work Chromium did on this machine, scaled by the preset's
 * multiplier (desktop: 1, as observed). On a slowed machine every script then counts as heavier
 * than it is: a CI run that took 3.6× as long as usual scored 73–89 on pages that scored 100 here
 * the same day, with the same build and data. As PageSpeed Insights does for its hosts, the
 * multiplier follows the host's own CPU benchmark (Lighthouse's `benchmarkIndex`, measured in each
 * run): at REFERENCE_BENCHMARK_INDEX or above it is the preset's; below, the preset's times
 * index ÷ reference, never under MIN_CPU_FACTOR. What the budget is for (more script, blocking
 * work, layout shifts, a slow server answer) still lowers every run.
 */
const REFERENCE_BENCHMARK_INDEX = 1500;
const MIN_CPU_FACTOR = 0.2;

/** The preset's CPU multiplier is scaled by this: the median of the host's last three benchmarks against the reference. */
function cpuFactor(benchmarks: number[]): number {
  const recent = benchmarks.slice(-3).sort((a, b) => a - b);
  if (recent.length === 0) return 1;
  return Math.max(MIN_CPU_FACTOR, Math.min(1, recent[Math.floor(recent.length / 2)] / REFERENCE_BENCHMARK_INDEX));
}
/** `LIGHTHOUSE_PRESET=mobile` measures with Lighthouse's default mobile emulation and throttling instead. */
const MOBILE = process.env.LIGHTHOUSE_PRESET === "mobile";
/** Printed per run, in ms (CLS ×1000), so a log says which metric a low score lost its points on. */
const METRICS: Array<[string, string, number]> = [
  ["server-response-time", "TTFB", 1],
  ["first-contentful-paint", "FCP", 1],
  ["largest-contentful-paint", "LCP", 1],
  ["speed-index", "SI", 1],
  ["total-blocking-time", "TBT", 1],
  ["cumulative-layout-shift", "CLSx1000", 1000],
];

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
  const scores: Record<
    string,
    { performance: number; median: number; accessibility: number; runs: number[]; metrics: string[]; failing?: string[] }
  > = {};
  try {
    const targets: Array<[string, boolean]> = [
      ["/sign-in", false],
      ["/", true],
      [`/${accountId}/transactions`, true],
      [`/${accountId}/charges/new/pix`, true],
      [resultPath, true],
    ];
    const presetThrottling = MOBILE ? throttling.mobileSlow4G : desktopConfig.settings!.throttling!;
    const speeds: number[] = [];
    const load = async (path: string, signedIn: boolean) => {
      const cpuSlowdownMultiplier = (presetThrottling.cpuSlowdownMultiplier ?? 1) * cpuFactor(speeds);
      const run = await lighthouse(
        `${E2E.baseUrl}${path}`,
        {
          port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          extraHeaders: { "x-forwarded-for": "10.77.0.1", ...(signedIn ? { Cookie: cookies } : {}) },
          throttling: { ...presetThrottling, cpuSlowdownMultiplier },
        },
        MOBILE ? undefined : desktopConfig,
      );
      const { lhr } = run!;
      speeds.push(lhr.environment.benchmarkIndex);
      return { lhr, cpu: `bench ${Math.round(lhr.environment.benchmarkIndex)} cpu×${cpuSlowdownMultiplier.toFixed(2)}` };
    };
    // Not counted: it measures the host before the first counted load.
    await load("/sign-in", false);
    for (const [path, signedIn] of targets) {
      const runs: { performance: number; accessibility: number; metrics: string; failing: string[] }[] = [];
      for (let attempt = 0; attempt < RUNS; attempt++) {
        const { lhr, cpu } = await load(path, signedIn);
        const categories = lhr.categories;
        expect(lhr.finalDisplayedUrl, `${path} opened as itself, not a redirect to sign-in`).toContain(path);
        const audits = lhr.audits;
        runs.push({
          performance: Math.round((categories.performance.score ?? 0) * 100),
          metrics: [...METRICS.map(([id, label, scale]) => `${label} ${Math.round((audits[id]?.numericValue ?? NaN) * scale)}`), cpu].join(
            " ",
          ),
          accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
          failing: categories.accessibility.auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0).map((ref) => ref.id),
        });
      }
      runs.sort((a, b) => a.performance - b.performance);
      const performances = runs.map((r) => r.performance);
      // Accessibility does not depend on load: the worst run counts.
      const worst = runs.reduce((a, b) => (b.accessibility < a.accessibility ? b : a));
      scores[path] = {
        performance: performances[performances.length - 1],
        median: performances[Math.floor(performances.length / 2)],
        accessibility: worst.accessibility,
        runs: performances,
        metrics: runs.map((r) => `${r.performance}: ${r.metrics}`),
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
