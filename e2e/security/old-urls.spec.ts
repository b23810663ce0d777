import { expect, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";
import { expectResult, fillCustomer, openChargeForm, submit } from "../fixtures/charges";
import { addAccount, DEMO_KEYS } from "../transactions/helpers";

/** Addresses from before every account page carried its account: one redirect, to the account page. */
test.describe("old addresses", () => {
  test("a page opens under the remembered account, an object's page under the account it belongs to, each in one redirect", async ({
    adminPage: page,
  }) => {
    const demoId = await demoAccountId(page);
    const identifier = await openChargeForm(page, "pix", demoId);
    expect(identifier).toBeTruthy();
    await page.getByLabel("Valor (R$)").fill("10,00");
    await fillCustomer(page);
    await submit(page);
    await expectResult(page);
    const chargeId = new URL(page.url()).pathname.split("/").pop()!;

    const once = async (from: string, to: string) => {
      const response = await page.request.get(from, { maxRedirects: 0 });
      expect(response.status(), from).toBe(307);
      const location = new URL(response.headers().location!, page.url());
      expect(`${location.pathname}${location.search}`, from).toBe(to);
      const landed = await page.request.get(to, { maxRedirects: 0 });
      expect(landed.status(), to).toBe(200);
    };
    await once("/", `/${demoId}`);
    await once("/transactions?q=abc", `/${demoId}/transactions?q=abc`);
    await once("/transactions/unconfirmed", `/${demoId}/transactions/unconfirmed`);
    await once("/charges/new/pix", `/${demoId}/charges/new/pix`);
    await once("/lookup", `/${demoId}/lookup`);
    await once("/webhooks", `/${demoId}/webhooks`);

    // With another account remembered, an old object address still finds the account it belongs to.
    const otherId = await addAccount(page, `Outra ${Date.now()}`, DEMO_KEYS);
    await page.context().addCookies([{ name: "account", value: otherId, url: new URL(page.url()).origin }]);
    await once("/transfers", `/${otherId}/transfers`);
    await once(`/charges/${chargeId}`, `/${demoId}/charges/${chargeId}`);
    await once(`/transactions/${chargeId}`, `/${demoId}/transactions/${chargeId}`);
    // An id found in no account the user may see, or no id at all: not found, without a redirect.
    for (const path of [`/charges/${crypto.randomUUID()}`, "/charges/not-an-id", "/charges", "/lookup/x"]) {
      expect((await page.request.get(path, { maxRedirects: 0 })).status(), path).toBe(404);
    }
  });
});
