#!/usr/bin/env node
// `npm test`: lint, formatting (Prettier's check), typecheck, unit + integration tests (PGlite, and Postgres when
// TEST_DATABASE_URL is set), a production build, the crash-safety scenarios on that build (Postgres,
// TEST_DATABASE_URL), then the Playwright suite on Debian's Chromium.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { findChromium } from "./chromium.mjs";

const steps = [
  ["lint", "npx", ["eslint", ".", "--max-warnings", "0"]],
  ["formatting", "npx", ["prettier", "--check", "."]],
  ["typecheck", "npx", ["tsc", "--noEmit", "-p", "."]],
  ["unit and integration tests", "npx", ["vitest", "run"]],
  ["production build", "npx", ["next", "build"]],
  // Kills real processes (web server, worker connections, a gateway call in flight): scripts/chaos/run.ts.
  ["chaos: processes killed under load", "npx", ["tsx", "scripts/chaos/run.ts"], { needs: "TEST_DATABASE_URL" }],
  ["end-to-end tests", "npx", ["playwright", "test"]],
];

const only = process.argv[2];
const chromium = findChromium();
if (!chromium && (!only || only === "e2e")) {
  console.error(
    "\n✗ No Chromium found for the end-to-end tests.\n" +
      "  Install Debian's Chromium (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.\n",
  );
  process.exit(1);
}
if (!process.env.TEST_DATABASE_URL) {
  console.warn("! TEST_DATABASE_URL is not set: integration tests run on PGlite only.");
}

const selected = only ? steps.filter(([name]) => name.startsWith(only) || (only === "e2e" && name.startsWith("end"))) : steps;
for (const [name, command, args, options] of selected) {
  if (options?.needs && !process.env[options.needs]) {
    console.log(
      `\n- ${name}: skipped, ${options.needs} is not set (these scenarios run the console on Postgres; set it, e.g. postgres://postgres@127.0.0.1:5432/test)`,
    );
    continue;
  }
  console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, CHROMIUM_PATH: chromium ?? "" } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed after ${seconds}s (exit code ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds}s)`);
}
if (existsSync("test-results/.last-run.json")) console.log("\nAll steps passed.");
