import type { APIRequestContext, Page } from "@playwright/test";
import { createUserAsAdmin, expect, signedInPage, test } from "../fixtures/test";

/** Opens the live-feed stream in the page and records when the server ends it. */
async function openFeedStream(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { streamEndedAt?: number };
    void fetch("/api/feed/stream").then(async (response) => {
      const reader = response.body!.getReader();
      while (!(await reader.read()).done) {
        // keep reading until the server closes the stream
      }
      w.streamEndedAt = Date.now();
    });
  });
  // The stream is open once its first event arrived; give it a moment.
  await page.waitForTimeout(500);
}

const streamEndedAt = (page: Page) => page.evaluate(() => (window as unknown as { streamEndedAt?: number }).streamEndedAt ?? null);

async function signOutWithApi(request: APIRequestContext) {
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await request.post("/api/auth/signout", { form: { csrfToken, json: "true" }, maxRedirects: 0 });
}

test.describe("sessions", () => {
  test("signing out ends an open feed stream within 10 s, and the old cookie opens nothing", async ({ browser, adminPage }) => {
    const user = await createUserAsAdmin(adminPage, { role: "viewer" });
    const page = await signedInPage(browser, user);
    await page.goto("/activity");
    const cookies = await page.context().cookies();
    await openFeedStream(page);
    expect(await streamEndedAt(page)).toBeNull();

    const signedOutAt = Date.now();
    await signOutWithApi(page.context().request);
    await expect.poll(() => streamEndedAt(page), { timeout: 10_000 }).not.toBeNull();
    expect((await streamEndedAt(page))! - signedOutAt).toBeLessThan(10_000);

    // The cookie from before signing out, put back: refused.
    await page.context().addCookies(cookies);
    const replay = await page.context().request.get("/api/feed/stream", { maxRedirects: 0 });
    expect(replay.status()).toBe(401);
    await page.context().close();
  });

  test("deactivating a user ends their open stream within 10 s", async ({ browser, adminPage }) => {
    const user = await createUserAsAdmin(adminPage, { role: "viewer" });
    const page = await signedInPage(browser, user);
    await page.goto("/activity");
    await openFeedStream(page);

    await adminPage.goto("/admin/users");
    const row = adminPage.getByTestId(`user-row-${user.email}`);
    adminPage.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: `Ações: ${user.email}` }).click();
    await adminPage.getByRole("menuitem", { name: "Desativar" }).click();
    const deactivatedAt = Date.now();
    await expect(row.getByText("Desativado")).toBeVisible();
    await expect.poll(() => streamEndedAt(page), { timeout: 10_000 }).not.toBeNull();
    expect((await streamEndedAt(page))! - deactivatedAt).toBeLessThan(10_000);
    await page.context().close();
  });
});
