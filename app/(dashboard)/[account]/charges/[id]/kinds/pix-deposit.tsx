import { paymentInstructions } from "@/lib/charges/payment-instructions";
import { RawFallback, settledOneOff, type ChargeView } from "../frame";
import { PixInstructionsCard } from "./pix";

/** A Pix deposit into the account: paid like a Pix charge, titled as a deposit. */
export function PixDepositOutcome({ view }: { view: ChargeView }) {
  const settled = settledOneOff(view);
  if (settled) return settled;
  const pix = paymentInstructions(view.row.kind, view.row.response, view.row.gatewayRecord);
  return pix?.method === "pix" ? (
    <PixInstructionsCard view={view} row={view.row} pix={pix} amountLabel={view.amountLabel} />
  ) : (
    <RawFallback view={view} />
  );
}
