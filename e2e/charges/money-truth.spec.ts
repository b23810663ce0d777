import { expect, test } from "../fixtures/test";
import { expectResult, fillCustomer, openChargeForm, sandboxControl, submit } from "../fixtures/charges";
import { DEMO_TOKEN, demoAccountId, webhookUrl, demoPath } from "../fixtures/sandbox";
import { shoot } from "./shots";

/** A payment notification for a real transaction, as anyone holding the account's token could post it. */
function notification(
  transactionId: string,
  identifier: string,
  event: string,
  status: string,
  times: { createdAt: string; payedAt?: string },
) {
  return {
    event,
    token: DEMO_TOKEN,
    offerCode: null,
    checkoutUrl: "",
    client: {
      id: "c1",
      name: "Maria Souza",
      email: "maria.souza@example.com",
      phone: "(11) 98765-4321",
      cpf: "529.982.247-25",
      cnpj: null,
    },
    transaction: {
      id: transactionId,
      identifier,
      status,
      paymentMethod: "PIX",
      amount: 33.1,
      currency: "BRL",
      createdAt: times.createdAt,
      payedAt: times.payedAt,
    },
  };
}

async function createPixCharge(page: import("@playwright/test").Page, amount: string) {
  const identifier = await openChargeForm(page, "pix");
  await page.getByLabel("Valor (R$)").fill(amount);
  await fillCustomer(page);
  await submit(page);
  await expectResult(page);
  const transactionId = (await page.getByTestId("result-transaction-id").textContent())!.trim();
  return { identifier, transactionId };
}

test.describe("money truth", () => {
  test("a forged paid notification with a valid token is not shown as paid; the real payment is", async ({ adminPage: page, request }) => {
    const accountId = await demoAccountId(page);
    const { identifier, transactionId } = await createPixCharge(page, "33,10");
    const forged = await request.post(webhookUrl(accountId), {
      data: notification(transactionId, identifier, "TRANSACTION_PAID", "COMPLETED", {
        createdAt: new Date().toISOString(),
        payedAt: new Date().toISOString(),
      }),
    });
    expect(forged.status()).toBe(200);
    // The gateway's lookup says it is still unpaid: the console keeps saying so and flags the delivery.
    await page.goto("/activity");
    const row = page.locator(`[data-testid="feed-row"][data-transaction-id="${transactionId}"][data-event="TRANSACTION_PAID"]`);
    await expect(row.getByTestId("confirmation")).toHaveAttribute("data-confirmation", "contradicted", { timeout: 15_000 });
    await page.goBack();
    await expect(page.getByTestId("gateway-status")).toHaveText("Aguardando pagamento");
    await expect(page.getByTestId("pending-confirmation")).toHaveCount(0);

    // The customer really pays: the sandbox notifies, the console confirms it and the page shows it without a reload.
    await sandboxControl().event(transactionId, "pay");
    await expect(page.getByTestId("gateway-status")).toHaveText("Pago", { timeout: 15_000 });
    // The page turns into the receipt: the QR code and the copy-and-paste code are gone.
    await expect(page.getByTestId("paid-result")).toBeVisible();
    await expect(page.getByTestId("paid-amount")).toHaveText("R$ 33,10");
    await expect(page.getByTestId("pix-code")).toHaveCount(0);
    await expect(page.getByTestId("print-receipt")).toBeVisible();
    // The end-to-end id comes with the gateway's notification (its lookup does not carry one).
    await expect(page.getByTestId("paid-result")).toContainText(/ID fim a fim \(E2E\)\s*E\d{20}[A-Za-z0-9]{11}/);
    await shoot(page, "pix-paid");
  });

  test("a paid charge stays paid after a stale delivery", async ({ adminPage: page, request }) => {
    const accountId = await demoAccountId(page);
    const { identifier, transactionId } = await createPixCharge(page, "12,34");
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    await sandboxControl().event(transactionId, "pay");
    await expect(page.getByTestId("gateway-status")).toHaveText("Pago", { timeout: 15_000 });

    // A creation notice delivered late (or replayed), whatever timestamp it carries.
    for (const status of ["PENDING", "OK"]) {
      const stale = await request.post(webhookUrl(accountId), {
        data: notification(transactionId, identifier, "TRANSACTION_CREATED", status, {
          createdAt: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      });
      expect(stale.status()).toBe(200);
    }
    const late = await request.post(webhookUrl(accountId), {
      data: notification(transactionId, identifier, "TRANSACTION_CREATED", "PENDING", { createdAt }),
    });
    expect(late.status()).toBe(200);
    await page.waitForTimeout(2_000);
    await page.reload();
    await expect(page.getByTestId("gateway-status")).toHaveText("Pago");
    await expect(page.getByTestId("paid-result")).toBeVisible();
    await page.goto(await demoPath(page, "/transactions?q=" + identifier));
    await expect(page.getByTestId("transaction-row")).toHaveCount(1);
    await expect(page.getByTestId("transaction-row")).toContainText("Pago");
  });
});
