import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./scripts/dev/chromium.mjs";
import { E2E } from "./e2e/fixtures/env";

const LIGHTHOUSE_SPEC = /budgets\/lighthouse\.spec\.ts$/;
const CRAWL_SPEC = /crawl\/crawl\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // A hang detector, not a speed budget: the same suite ran twice as slowly on a busy 2-core machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: E2E.baseUrl,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: "chromium", use: { browserName: "chromium" }, testIgnore: [LIGHTHOUSE_SPEC, CRAWL_SPEC] },
    // The crawl reads every page once the suite's data exists (as a producer's first hour would have
    // it), and its own burst of sales stays out of the specs that count what one account receives.
    // `npx playwright test --project=crawl --no-deps` runs it by itself.
    { name: "crawl", use: { browserName: "chromium" }, testMatch: CRAWL_SPEC, dependencies: ["chromium"] },
    // Lighthouse times page loads: beside another worker on the same two cores its scores fell by
    // 20–35 points (94–99 alone, 59–85 beside the suite). It runs alone, after everything else;
    // `npx playwright test --project=lighthouse --no-deps` runs it by itself.
    { name: "lighthouse", use: { browserName: "chromium" }, testMatch: LIGHTHOUSE_SPEC, dependencies: ["chromium", "crawl"] },
  ],
  webServer: {
    command: "node e2e/fixtures/server.mjs",
    url: `${E2E.baseUrl}/sign-in`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
