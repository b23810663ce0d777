import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { startReceiver } from "../../lib/testing/webhook-receiver";
import { E2E } from "../fixtures/env";
import { createSandboxControl } from "../../sandbox/control-client";
import { CUSTOMER } from "../fixtures/charges";
import { DEMO_KEYS } from "../fixtures/sandbox";
import { expect, randomClientIp, signInWithApi, test } from "../fixtures/test";

/*
 * The serverless mode, as on Vercel: RECONCILER=cron and nothing calling /api/cron/reconcile.
 * A second console (same build, a sandbox of its own) runs that way; the work a notification
 * causes (apply, confirm with the gateway, deliver the event) starts right after its answer.
 */
const port = E2E.port + 1;
const sandboxPort = E2E.sandboxPort + 1;
const sandbox = createSandboxControl({ baseUrl: `http://127.0.0.1:${sandboxPort}`, ...DEMO_KEYS });
const baseUrl = `http://localhost:${port}`;
const dataDir = path.resolve(".data", `e2e-serverless-${port}`);
const admin = { email: "admin@serverless.test", password: "serverless-admin-password-1" };
let server: ChildProcess | null = null;

test.beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  server = spawn(process.execPath, ["scripts/run/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: baseUrl,
      DATA_DIR: dataDir,
      SEED_ADMIN_EMAIL: admin.email,
      SEED_ADMIN_PASSWORD: admin.password,
      SANDBOX_PORT: String(sandboxPort),
      GATEWAY_BASE_URL: "",
      GATEWAY_ACCOUNT_NAME: "Sandbox — serverless",
      RECONCILER: "cron",
      CRON_SECRET: "",
      TRUSTED_PROXY_HOPS: "1",
    },
    stdio: "ignore",
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = await fetch(`${baseUrl}/sign-in`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error("the serverless console did not start");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
});

test("with no cron call, a Pix paid at the sandbox is paid in the ledger and its charge.paid delivered within 5 s", async ({ browser }) => {
  let secret: string | null = null;
  const receiver = await startReceiver(() => secret);
  const context = await browser.newContext({
    baseURL: baseUrl,
    extraHTTPHeaders: { "x-forwarded-for": randomClientIp() },
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  try {
    const response = await signInWithApi(context.request, admin);
    expect(response.status()).toBeLessThan(400);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/accounts`);
    const href = await page.getByRole("link", { name: "Sandbox — serverless" }).first().getAttribute("href");
    const accountId = href!.split("/").pop()!;

    await page.goto(`${baseUrl}/${accountId}/destinations/new`);
    await page.getByLabel("Endereço (URL)").fill(receiver.url);
    await page.getByRole("button", { name: "Criar destino" }).click();
    secret = (await page.getByTestId("destination-secret").textContent())!.trim();

    await page.goto(`${baseUrl}/${accountId}/charges/new/pix`);
    await expect(page.getByLabel("Identificador")).not.toHaveValue("");
    const identifier = (await page.getByLabel("Identificador").inputValue()).trim();
    await page.getByLabel("Valor (R$)").fill("55,00");
    await page.getByLabel("Nome completo").fill(CUSTOMER.name);
    await page.getByLabel("E-mail").fill(CUSTOMER.email);
    await page.getByLabel("Telefone").fill(CUSTOMER.phone);
    await page.getByLabel("CPF ou CNPJ").fill(CUSTOMER.document);
    await page.getByRole("button", { name: /Criar cobrança/ }).click();
    await page.waitForURL(/\/charges\/[0-9a-f-]{36}$/);

    const lookup = await fetch(
      `http://127.0.0.1:${sandboxPort}/api/v1/gateway/transactions?clientIdentifier=${encodeURIComponent(identifier)}`,
      {
        headers: { "x-public-key": DEMO_KEYS.publicKey, "x-secret-key": DEMO_KEYS.secretKey },
      },
    );
    const record = (await lookup.json()) as { id: string };
    const paidAt = Date.now();
    await sandbox.event(record.id, "pay");

    const delivered = () =>
      receiver.received.find((r) => {
        const body = r.verified as { type?: string; data?: { identifier?: string } } | null;
        return body?.type === "charge.paid" && body.data?.identifier === identifier;
      });
    await expect.poll(() => delivered() !== undefined, { timeout: 5_000, intervals: [100] }).toBe(true);
    const arrival = delivered()!.at - paidAt;

    // An event is made only from a committed status: the ledger said "paid" before it left. The
    // transactions list (not only the charge's own page) shows it.
    await page.goto(`${baseUrl}/${accountId}/transactions?q=${identifier}`);
    await expect(page.getByRole("row").filter({ hasText: identifier })).toContainText("Pago", { timeout: 1_000 });
    test.info().annotations.push({ type: "charge.paid arrival", description: `${arrival} ms after the sandbox paid` });
  } finally {
    await context.close();
    await receiver.close();
  }
});
