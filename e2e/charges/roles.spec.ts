import type { Request } from "@playwright/test";
import { createUserAsAdmin, expect, newClientContext, signedInPage, test } from "../fixtures/test";
import { expectResult, fillCustomer, openChargeForm, sandboxLookup } from "../fixtures/charges";
import { shoot } from "./shots";
import { demoPath } from "../fixtures/sandbox";

test.describe("who may create charges", () => {
  test("a viewer sees no charges entry and is refused the forms", async ({ browser, adminPage }) => {
    const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
    const page = await signedInPage(browser, viewer);
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Cobranças" })).toHaveCount(0);
    for (const path of ["/charges/new", "/charges/new/pix", "/charges/new/card"]) {
      await page.goto(await demoPath(page, path));
      await expect(page).toHaveURL(/\/forbidden$/);
    }
    await page.context().close();
  });

  test("a producer can create; a raw replay of the action is refused for a viewer and without a session", async ({
    browser,
    adminPage,
  }) => {
    const producer = await createUserAsAdmin(adminPage, { role: "producer" });
    const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
    const page = await signedInPage(browser, producer);
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Cobranças" })).toBeVisible();
    await page.goto(await demoPath(page, "/charges/new"));
    await expect(page.getByTestId("kind-pix")).toBeVisible();
    await shoot(page, "chooser");
    const identifier = await openChargeForm(page, "pix");
    await page.getByLabel("Valor (R$)").fill("12,00");
    await fillCustomer(page);
    const requestPromise = page.waitForRequest((req: Request) => req.method() === "POST" && !!req.headers()["next-action"]);
    await page.getByRole("button", { name: "Criar cobrança" }).click();
    const request = await requestPromise;
    await expectResult(page);
    const captured = { url: request.url(), actionId: request.headers()["next-action"], body: request.postData() ?? "" };
    expect(captured.body).toContain(identifier);

    const intruderId = `intruder-${Date.now()}`;
    const replay = (ctx: import("@playwright/test").BrowserContext) =>
      ctx.request.post(captured.url, {
        headers: { "next-action": captured.actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
        data: captured.body.replaceAll(identifier, intruderId),
        maxRedirects: 0,
      });
    const viewerPage = await signedInPage(browser, viewer);
    expect(await (await replay(viewerPage.context())).text()).toContain("errors.forbidden");
    const anonymous = await newClientContext(browser);
    // Without a session the proxy already turns the POST away to the sign-in page; the action itself would answer errors.unauthenticated.
    const asAnonymous = await replay(anonymous);
    const refused =
      asAnonymous.status() >= 300 && asAnonymous.status() < 400 ? asAnonymous.headers()["location"] : await asAnonymous.text();
    expect(refused).toMatch(/\/sign-in|errors\.unauthenticated/);
    expect(await sandboxLookup(intruderId)).toBeNull();
    await anonymous.close();
    await viewerPage.context().close();
    await page.context().close();
  });
});
