import { buildBrCode } from "../../lib/br/brcode";
import { pixTxidFor } from "../lib/ids";

export const SANDBOX_MERCHANT_CITY = "SAO PAULO";

/** Dynamic BR Code whose location is `<publicHost>/pix/<txid>` (no scheme, as the BCB requires). */
export function pixCodeFor(opts: { publicUrl: string; transactionId: string; amount: number; merchantName: string }): {
  code: string;
  txid: string;
} {
  const txid = pixTxidFor(opts.transactionId);
  const host = opts.publicUrl.replace(/^https?:\/\//i, "").replace(/\/+$/, "");
  const code = buildBrCode({
    kind: "dynamic",
    location: `${host}/pix/${txid}`,
    amount: opts.amount,
    merchantName: opts.merchantName,
    merchantCity: SANDBOX_MERCHANT_CITY,
    txid,
  });
  return { code, txid };
}
