import { expect, test } from "../fixtures/test";
import { DEMO_TOKEN, demoAccountId, paymentNotification, webhookUrl } from "./helpers";

// A measurement, not a functional check: run with E2E_LATENCY=1 (figures printed, p95 asserted < 1 s).
test("event-to-browser latency of the live feed", async ({ adminPage, request }) => {
  test.skip(!process.env.E2E_LATENCY, "set E2E_LATENCY=1 to measure");
  test.setTimeout(120_000);
  const rounds = Number(process.env.E2E_LATENCY_ROUNDS ?? 50);
  const accountId = await demoAccountId(adminPage);
  await adminPage.goto("/activity");
  await expect(adminPage.getByTestId("feed-mode")).toHaveAttribute("data-mode", "live");
  // The page notes when each row appears, on the same clock as this process.
  await adminPage.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { __seen: Record<string, number> }).__seen = seen;
    new MutationObserver(() => {
      for (const row of document.querySelectorAll<HTMLElement>('[data-testid="feed-row"]')) {
        const id = row.dataset.transactionId;
        if (id && !(id in seen)) seen[id] = Date.now();
      }
    }).observe(document.body, { childList: true, subtree: true });
  });

  const sent: Record<string, number> = {};
  for (let i = 0; i < rounds; i++) {
    const payload = paymentNotification(DEMO_TOKEN);
    sent[payload.transaction.id] = Date.now();
    const response = await request.post(webhookUrl(accountId), { data: payload });
    expect(response.status()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const readSeen = () => adminPage.evaluate(() => (window as unknown as { __seen: Record<string, number> }).__seen);
  await expect
    .poll(
      async () => {
        const seenNow = await readSeen();
        return Object.keys(sent).filter((id) => id in seenNow).length;
      },
      { timeout: 10_000 },
    )
    .toBe(rounds);
  const seen = await readSeen();
  const latencies = Object.entries(sent)
    .map(([id, at]) => seen[id] - at)
    .sort((a, b) => a - b);
  const pick = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
  console.log(`event-to-browser latency over ${rounds} events: p50 ${pick(50)} ms, p95 ${pick(95)} ms, max ${latencies.at(-1)} ms`);
  expect(pick(95)).toBeLessThan(1_000);
});
