import type { Page } from "@playwright/test";

/** Full-page screenshots at desktop and phone widths, for reviewing the result screens. */
export async function shoot(page: Page, name: string) {
  const dir = process.env.CHARGES_SHOTS_DIR;
  if (!dir) return;
  for (const [label, width] of [
    ["desktop", 1360],
    ["mobile", 390],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${dir}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}
