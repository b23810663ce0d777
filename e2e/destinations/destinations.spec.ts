import type { Page } from "@playwright/test";
import { startReceiver } from "../../lib/testing/webhook-receiver";
import { fillCustomer, openChargeForm, sandboxControl, sandboxLookup, submit, expectResult } from "../fixtures/charges";
import { demoAccountId } from "../fixtures/sandbox";
import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";

type Body = { type: string; data: { identifier?: string; destinationId?: string } };

/** Creates a destination through its form and returns its id and the secret shown once. */
async function createDestination(page: Page, accountId: string, url: string): Promise<{ id: string; secret: string }> {
  await page.goto(`/${accountId}/destinations/new`);
  await page.getByLabel("Endereço (URL)").fill(url);
  await page.getByLabel("Descrição").fill("Área de membros (e2e)");
  await page.getByRole("button", { name: "Criar destino" }).click();
  const secret = (await page.getByTestId("destination-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await page.getByRole("link", { name: "Abrir o destino" }).click();
  await page.waitForURL(/\/destinations\/[0-9a-f-]{36}$/);
  return { id: page.url().split("/").pop()!, secret };
}

test("a destination receives a verified charge.paid; failures are retried and logged; resend since re-delivers", async ({
  adminPage: page,
}) => {
  let secret: string | null = null;
  const receiver = await startReceiver(() => secret);
  try {
    const accountId = await demoAccountId(page);
    const destination = await createDestination(page, accountId, receiver.url);
    secret = destination.secret;
    await expect(page.getByTestId("destination-url")).toHaveText(receiver.url);

    // A Pix charge made in the console, paid at the sandbox.
    const identifier = await openChargeForm(page, "pix", accountId);
    await page.getByLabel("Valor (R$)").fill("97,00");
    await fillCustomer(page);
    await submit(page);
    await expectResult(page);
    const record = await sandboxLookup(identifier);
    await sandboxControl().event(String(record!.id), "pay");

    const paidFor = () =>
      receiver.received.filter(
        (r) => (r.verified as Body | null)?.type === "charge.paid" && (r.verified as Body).data.identifier === identifier,
      );
    await expect.poll(() => paidFor().length, { timeout: 30_000 }).toBe(1);
    const paid = paidFor()[0]!;
    expect(paid.verified).toMatchObject({
      type: "charge.paid",
      data: { object: "charge", identifier, status: "paid", amountCents: 9700, accountId, mode: "test" },
    });

    // The receiver fails twice, then accepts: three attempts of one event, one webhook-id.
    receiver.answer({ status: 500, body: '{"error":"indisponível"}' }, { status: 500, body: '{"error":"indisponível"}' });
    await page.goto(`/${accountId}/destinations/${destination.id}`);
    await page.getByRole("button", { name: "Enviar evento de teste" }).click();
    const testDeliveries = () => receiver.received.filter((r) => (r.verified as Body | null)?.type === "destination.test");
    await expect.poll(() => testDeliveries().length, { timeout: 20_000 }).toBe(3);
    expect(new Set(testDeliveries().map((r) => r.id)).size).toBe(1);
    const testRows = page.getByTestId("attempt-row").and(page.locator('[data-event-type="destination.test"]'));
    await expect(testRows).toHaveCount(3, { timeout: 15_000 });
    await expect(testRows.nth(0)).toHaveAttribute("data-status", "200");
    await expect(testRows.nth(1)).toHaveAttribute("data-status", "500");
    await expect(testRows.nth(2)).toHaveAttribute("data-status", "500");
    await expect(testRows.nth(2)).toContainText("indisponível");

    // "Resend since": the count first, then the events again, under the same ids.
    const replay = page.getByTestId("replay-panel");
    // Typed digit by digit, as a person does: the field masks it and keeps every digit.
    const sinceDate = replay.getByLabel("Data", { exact: true });
    const suggested = await sinceDate.inputValue();
    expect(suggested).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await sinceDate.fill("");
    await sinceDate.pressSequentially(suggested.replace(/\D/g, ""));
    await expect(sinceDate).toHaveValue(suggested);
    await replay.getByRole("button", { name: "Contar eventos" }).click();
    await expect(page.getByTestId("replay-count")).toContainText(/\d+ eventos? serã?o? reenviados?/);
    const before = receiver.received.length;
    await replay.getByRole("button", { name: /^Reenviar \d+ eventos?$/ }).click();
    await expect.poll(() => receiver.received.slice(before).filter((r) => r.id === paid.id).length, { timeout: 20_000 }).toBe(1);
    const again = receiver.received.slice(before).find((r) => r.id === paid.id)!;
    expect(again.verified).toMatchObject({ type: "charge.paid", data: { identifier } });
  } finally {
    await receiver.close();
  }
});

test("the destinations page names the account; only roles that administer it may manage", async ({ browser, page, adminPage }) => {
  const accountId = await demoAccountId(adminPage);
  await adminPage.goto(`/${accountId}/destinations`);
  await expect(adminPage.getByTestId("account-banner")).toContainText("Sandbox — demo");
  await expect(adminPage.getByRole("link", { name: "Novo destino" })).toBeVisible();

  const operator = await createUserAsAdmin(adminPage, { role: "operator" });
  const operatorPage = await signedInPage(browser, operator);
  await operatorPage.goto(`/${accountId}/destinations`);
  await expect(operatorPage.getByRole("heading", { name: "Destinos de eventos" })).toBeVisible();
  await expect(operatorPage.getByRole("link", { name: "Novo destino" })).toHaveCount(0);
  await expect(operatorPage.getByTestId("listen-panel")).toHaveCount(0);
  await operatorPage.goto(`/${accountId}/destinations/new`);
  await expect(operatorPage).toHaveURL(/\/forbidden/);
  await operatorPage.context().close();

  // Without a session the page is not shown.
  await page.goto(`/${accountId}/destinations`);
  await expect(page).toHaveURL(/sign-in/);
});
