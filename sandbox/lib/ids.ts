import { randomBytes, randomUUID } from "node:crypto";

export function prefixedId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString("hex")}`;
}

export const newTransactionId = () => randomUUID();

/** Pix txid for the BR Code: 25 letters/digits derived from the transaction id. */
export function pixTxidFor(transactionId: string): string {
  return transactionId.replace(/-/g, "").slice(0, 25);
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** End-to-end id shaped like the SPI's: E + ISPB(8) + yyyyMMddHHmm + 11 alphanumerics. */
export function newEndToEndId(at: Date, ispb = "60746948"): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const stamp = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`;
  const bytes = randomBytes(11);
  let tail = "";
  for (const b of bytes) tail += ALNUM[b % ALNUM.length];
  return `E${ispb}${stamp}${tail}`;
}
