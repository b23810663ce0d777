import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures/test";
import { DEMO_KEYS, expectResult, fillCustomer, openChargeForm, sandboxLookup, submit } from "../fixtures/charges";
import { demoAccountId } from "../fixtures/sandbox";
import { addAccount, switchAccount } from "../transactions/helpers";

test.describe("the account an operation goes to", () => {
  test("a second tab's account switch cannot redirect a charge: the form submits to the account it shows", async ({ adminPage: page }) => {
    const demoId = await demoAccountId(page);
    const otherName = `Outra conta ${randomUUID().slice(0, 6)}`;
    const otherId = await addAccount(page, otherName, DEMO_KEYS);
    expect(otherId).not.toBe(demoId);

    // Tab 1: the demo account's Pix form, with the account in its address and on the form.
    const identifier = await openChargeForm(page, "pix", demoId);
    await expect(page.getByTestId("account-banner")).toHaveAttribute("data-account-id", demoId);
    await expect(page.getByTestId("account-banner")).toContainText("Sandbox — demo");
    await page.getByLabel("Valor (R$)").fill("12,34");
    await fillCustomer(page);

    // Tab 2, same session: the user switches to the other account.
    const tab2 = await page.context().newPage();
    await tab2.goto("/");
    await switchAccount(tab2, otherName);

    // Tab 1 submits: the charge goes to the account its form showed.
    await submit(page);
    await expectResult(page);
    await expect(page.getByTestId("result-account")).toHaveAttribute("data-account-id", demoId);
    expect(await sandboxLookup(identifier)).not.toBeNull();

    // The other account's ledger (the one tab 2 now works on) does not have it; the demo account's does.
    await tab2.goto(`/transactions?q=${identifier}`);
    await expect(tab2.getByTestId("transaction-row")).toHaveCount(0);
    await switchAccount(tab2, "Sandbox — demo");
    await tab2.goto(`/transactions?q=${identifier}`);
    await expect(tab2.getByTestId("transaction-row")).toHaveCount(1);

    // An account-less address opens the form of the account being worked on, named in the URL.
    await tab2.goto("/charges/new/pix");
    await expect(tab2).toHaveURL(new RegExp(`/${demoId}/charges/new/pix$`));
    await tab2.close();
  });
});
