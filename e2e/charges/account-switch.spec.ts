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

    // Tab 2 switched to the other account's overview; its ledger does not have the charge, the demo account's does.
    await expect(tab2).toHaveURL(new RegExp(`/${otherId}$`));
    await tab2.goto(`/${otherId}/transactions?q=${identifier}`);
    await expect(tab2.getByTestId("transaction-row")).toHaveCount(0);
    await tab2.goto(`/${demoId}/transactions?q=${identifier}`);
    await expect(tab2.getByTestId("transaction-row")).toHaveCount(1);

    // An old account-less address opens the same page of the account last worked on (tab 2's switch), named in the URL.
    await tab2.goto(`/transactions?q=${identifier}`);
    await expect(tab2).toHaveURL(new RegExp(`/${otherId}/transactions\\?q=${identifier}$`));
    await switchAccount(tab2, "Sandbox — demo");
    await tab2.goto("/charges/new/pix");
    await expect(tab2).toHaveURL(new RegExp(`/${demoId}/charges/new/pix$`));
    // An old address of a charge finds the account it belongs to, whichever account is remembered.
    const resultPath = new URL(page.url()).pathname;
    await switchAccount(tab2, otherName);
    await tab2.goto(resultPath.replace(`/${demoId}`, ""));
    await expect(tab2).toHaveURL(new RegExp(`${resultPath}$`));
    await expect(tab2.getByTestId("result-account")).toHaveAttribute("data-account-id", demoId);
    await tab2.close();
  });
});
