import { expect, test } from "../fixtures/test";
import { expectQrOf, expectResult, fillCustomer, openChargeForm, sandboxControl, sandboxLookup, submit } from "../fixtures/charges";
import { shoot } from "./shots";

function plusDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

const ITF = ["00110", "10001", "01001", "11000", "00101", "10100", "01100", "00011", "10010", "01010"];

/** Reads the digits back from the drawn bars: after the 4-element start guard, each digit pair is 5 bars interleaved with 5 spaces. */
function decodeItf(rects: number[][]): string {
  const elements: number[] = [];
  rects.forEach(([x, width], i) => {
    elements.push(width);
    if (i + 1 < rects.length) elements.push(rects[i + 1][0] - (x + width));
  });
  const narrow = Math.min(...elements);
  const wide = (w: number) => (w > narrow * 1.5 ? "1" : "0");
  const body = elements.slice(4, elements.length - 3);
  let digits = "";
  for (let i = 0; i < body.length; i += 10) {
    const chunk = body.slice(i, i + 10);
    digits += ITF.indexOf(
      chunk
        .filter((_, k) => k % 2 === 0)
        .map(wide)
        .join(""),
    );
    digits += ITF.indexOf(
      chunk
        .filter((_, k) => k % 2 === 1)
        .map(wide)
        .join(""),
    );
  }
  return digits;
}

test.describe("boleto and crypto charges", () => {
  test("a boleto shows the sandbox's digitable line, draws its barcode and links the PDF", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "boleto");
    await page.getByLabel("Valor (R$)").fill("1.234,56");
    await fillCustomer(page, { document: "11222333000181" });
    await expect(page.getByLabel("CPF ou CNPJ")).toHaveValue("11.222.333/0001-81");
    const due = plusDays(5);
    const [year, month, day] = due.split("-");
    // The console's own date field, in the console's language (dd/mm/aaaa), whatever the browser's.
    await page.getByLabel("Vencimento").fill(`${day}/${month}/${year}`);
    await submit(page);
    await expectResult(page);

    const sandbox = await sandboxLookup(identifier);
    const info = sandbox?.boletoInformation as { digitableLine: string; barcode: string; dueDate: string };
    const onlyDigits = (v: string) => v.replace(/\D/g, "");
    await expect(page.getByTestId("digitable-line")).toHaveAttribute("data-value", onlyDigits(info.digitableLine));
    await expect(page.getByTestId("itf-barcode")).toHaveAttribute("data-digits", onlyDigits(info.barcode));
    const rects = await page
      .getByTestId("itf-barcode")
      .locator("rect")
      .evaluateAll((nodes) => nodes.map((n) => [Number(n.getAttribute("x")), Number(n.getAttribute("width"))]));
    expect(decodeItf(rects)).toBe(onlyDigits(info.barcode));
    await expect(page.getByTestId("boleto-pdf")).toHaveAttribute("href", /\/boleto\/.+\.pdf$/);
    const [y, m, d] = due.split("-");
    await expect(page.getByTestId("boleto-due-date")).toContainText(`${d}/${m}/${y}`);
    await shoot(page, "boleto-result");

    // The customer pays while the page is open: it turns into the receipt, the digitable line is gone.
    await sandboxControl().event(sandbox!.id as string, "pay");
    await expect(page.getByTestId("paid-result")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("digitable-line")).toHaveCount(0);
    await expect(page.getByTestId("paid-amount")).toHaveText("R$ 1.234,56");
  });

  test("a crypto charge shows the address as QR, the amount, the network and a countdown", async ({ adminPage: page }) => {
    const identifier = await openChargeForm(page, "crypto");
    await page.getByLabel("Valor (R$)").fill("110,00");
    await fillCustomer(page);
    await page.getByLabel("Criptomoeda").fill("USDT");
    await page.getByLabel("Rede").fill("POLYGON");
    await submit(page);
    await expectResult(page);
    const address = (await page.getByTestId("crypto-address").getAttribute("data-value"))!;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await expectQrOf(page, address);
    await expect(page.getByTestId("crypto-amount")).toContainText("20 USDT");
    await expect(page.getByTestId("crypto-network")).toHaveText("POLYGON");
    await expect(page.getByTestId("countdown")).toContainText(/Expira em (29|30):\d\d/);
    expect((await sandboxLookup(identifier))?.status).toBe("PENDING");
    await shoot(page, "crypto-result");
  });
});
