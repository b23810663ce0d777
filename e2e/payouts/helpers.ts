import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import type { Page } from "@playwright/test";
import { expect } from "../fixtures/test";
import { E2E } from "../fixtures/env";

import { DEMO_KEYS, sandboxControl, demoPath } from "../fixtures/sandbox";

export { DEMO_KEYS, sandboxControl };

/** Full-page screenshots at desktop and phone widths when PAYOUTS_SHOTS_DIR is set. */
export async function shoot(page: Page, name: string) {
  const dir = process.env.PAYOUTS_SHOTS_DIR;
  if (!dir) return;
  for (const [label, width] of [
    ["desktop", 1360],
    ["mobile", 390],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${dir}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

export type TransferFill = { amountDigits: string; key: string; ownerName: string; cpf: string };

export const defaultTransfer: TransferFill = {
  amountDigits: "1500",
  key: "recebedor@example.com",
  ownerName: "João da Conceição",
  cpf: "52998224725",
};

/** Fills the transfer form (of the account named, else of the demo account) and goes to the review step. */
export async function fillTransfer(page: Page, fill: TransferFill = defaultTransfer, accountId?: string) {
  await page.goto(accountId ? `/${accountId}/transfers/new` : await demoPath(page, "/transfers/new"));
  await page.getByLabel("Valor", { exact: true }).fill(fill.amountDigits);
  await page.getByLabel("Chave Pix", { exact: true }).fill(fill.key);
  await page.getByLabel("Nome do titular", { exact: true }).fill(fill.ownerName);
  await page.getByLabel("Número do documento", { exact: true }).fill(fill.cpf);
  const identifier = await page.getByRole("textbox", { name: "Identificador" }).inputValue();
  await page.getByRole("button", { name: "Revisar transferência" }).click();
  await expect(page.getByTestId("transfer-review")).toBeVisible();
  return identifier;
}

/** A Pix charge created at the sandbox as the producer's own backend would, then paid. */
export async function paidChargeAtSandbox(page: Page, amount = 42): Promise<string> {
  const response = await page.request.post(`${E2E.sandboxUrl}/api/v1/gateway/pix/receive`, {
    headers: { "x-public-key": DEMO_KEYS.publicKey, "x-secret-key": DEMO_KEYS.secretKey },
    data: {
      identifier: `e2e-refund-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      amount,
      client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" },
    },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  const { transactionId } = (await response.json()) as { transactionId: string };
  await sandboxControl().event(transactionId, "pay");
  return transactionId;
}

/** Admins see every account and default to the first by name: pin the env account for this context. */
export async function useDemoAccount(page: Page): Promise<string> {
  await page.goto("/accounts");
  const href = await page.getByRole("link", { name: "Sandbox — demo" }).first().getAttribute("href");
  const id = href?.split("/").pop();
  expect(id, "demo account link").toBeTruthy();
  await page.context().addCookies([{ name: "account", value: id!, url: E2E.baseUrl }]);
  return id!;
}

/** The audit page, filtered to one user and one action, shows at least one entry for `target`. */
export async function expectAudited(adminPage: Page, { email, action, target }: { email: string; action: string; target: string }) {
  await adminPage.goto(`/admin/audit?${new URLSearchParams({ email, action })}`);
  const rows = adminPage.getByTestId("audit-row").filter({ hasText: target });
  // The action reads as words; its code is the element's data-raw.
  await expect(rows.first().locator(`[data-raw="${action}"]`)).toBeVisible();
  await expect(rows.first()).toContainText(email);
}

/** The authenticator app: codes from the key the page shows, each time step used once (as e2e/auth/second-factor.spec.ts does). */
export function authenticator(keyText: string) {
  const key = decodeBase32IgnorePadding(keyText.replace(/\s+/g, ""));
  let lastStep = 0;
  return {
    async code(): Promise<string> {
      // The server accepts one step of drift: the step after the last used one is good once the clock reached the last used step.
      while (lastStep > Math.floor(Date.now() / 30_000)) await new Promise((resolve) => setTimeout(resolve, 250));
      const step = Math.max(Math.floor(Date.now() / 30_000), lastStep + 1);
      lastStep = step;
      return generateHOTP(key, BigInt(step), 6);
    },
  };
}

/** Turns on two-step verification for the signed-in user of `page`, through the profile page; returns their authenticator. */
export async function enrolSecondFactor(page: Page) {
  await page.goto("/profile/security");
  await page.getByTestId("enable-second-factor").click();
  await expect(page.getByRole("img", { name: "QR Code" })).toBeVisible();
  const app = authenticator((await page.getByTestId("totp-key").textContent()) ?? "");
  await page.getByLabel("Código de 6 dígitos").fill(await app.code());
  await page.getByRole("button", { name: "Confirmar e ativar" }).click();
  await page.getByTestId("recovery-codes-done").click();
  await expect(page.getByTestId("second-factor-state")).toContainText("Ativada desde");
  return app;
}
