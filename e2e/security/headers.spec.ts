import { expect, test } from "../fixtures/test";
import { DEMO_TOKEN, demoAccountId, paymentNotification, webhookUrl } from "../webhooks/helpers";

const PAGE_HEADERS = [
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "permissions-policy",
  "strict-transport-security",
  "content-security-policy",
];

test.describe("security headers", () => {
  test("pages and API answers carry them; a webhook answer is nosniff and never cached", async ({ adminPage, request }) => {
    const accountId = await demoAccountId(adminPage);
    for (const path of ["/sign-in", `/${accountId}/transactions`, "/api/feed"]) {
      const response = await adminPage.request.get(path, { maxRedirects: 0 });
      const headers = response.headers();
      for (const name of PAGE_HEADERS) expect(headers[name], `${name} on ${path}`).toBeTruthy();
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    }
    const delivery = await request.post(webhookUrl(accountId), { data: paymentNotification(DEMO_TOKEN) });
    expect(delivery.status()).toBe(200);
    expect(delivery.headers()["x-content-type-options"]).toBe("nosniff");
    expect(delivery.headers()["cache-control"]).toBe("no-store");
  });
});
