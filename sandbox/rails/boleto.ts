import { createHash } from "node:crypto";
import { barcodeToDigitableLine, buildBoletoBarcode } from "../../lib/br/boleto";

/** Bradesco's code: the sandbox issues its boletos as if registered at bank 237. */
export const SANDBOX_BOLETO_BANK = { code: "237", name: "Banco Bradesco S.A. (sandbox)" } as const;
export const DEFAULT_BOLETO_DUE_DAYS = 3;

export function defaultDueDate(now: Date): string {
  const due = new Date(now.getTime() + DEFAULT_BOLETO_DUE_DAYS * 86_400_000);
  return due.toISOString().slice(0, 10);
}

/** 25-digit free field derived from the transaction id ("nosso número" in bank terms). */
function freeFieldFor(transactionId: string): string {
  const digest = createHash("sha256").update(transactionId).digest();
  let digits = "";
  for (let i = 0; digits.length < 25; i++) digits += String(digest[i % digest.length] % 10);
  return digits;
}

export function issueBoleto(opts: { transactionId: string; amountCents: number; dueDate: string }) {
  const freeField = freeFieldFor(opts.transactionId);
  const barcode = buildBoletoBarcode({
    bankCode: SANDBOX_BOLETO_BANK.code,
    amountCents: opts.amountCents,
    dueDate: opts.dueDate,
    freeField,
  });
  const digitableLine = barcodeToDigitableLine(barcode);
  if (!digitableLine) throw new Error("barcode without digitable line");
  return { barcode, digitableLine, dueDate: opts.dueDate, bankCode: SANDBOX_BOLETO_BANK.code, documentNumber: freeField.slice(0, 11) };
}
