import "server-only";
import type { PayoutRowView } from "@/lib/payout-batches/queries";
import type { MachineKind } from "@/lib/status/machine";
import type { Translate } from "@/lib/i18n/translate";

type StatusWords = (kind: MachineKind, status: string) => string;

/** What happened to a row, in words: the outcome, and the gateway's status in its words when it says more. */
export function rowStatusWords(row: PayoutRowView, t: Translate, statusLabel: StatusWords): string {
  const outcome = t(`payouts.outcomes.${row.outcome}`);
  const gateway = row.withdrawStatus ? statusLabel("transfer", row.withdrawStatus) : null;
  return gateway && gateway !== outcome ? `${outcome} (${gateway})` : outcome;
}

/** Why a row did not go through, in words; the gateway's own text after a dash. Empty when nothing went wrong. */
export function rowErrorWords(row: PayoutRowView, t: Translate, statusLabel: StatusWords, has: (key: string) => boolean): string {
  switch (row.outcome) {
    case "refused": {
      const error = row.error ?? row.transferError;
      const kindKey = `payouts.errorKinds.${error?.kind ?? "other"}`;
      const words = has(kindKey) ? t(kindKey) : t("payouts.errorKinds.other");
      return error?.message ? `${words} — ${t("vocab.reasonFromGateway", { reason: error.message })}` : words;
    }
    case "failed":
      return t("payouts.errorWords.failed", { status: row.withdrawStatus ? statusLabel("transfer", row.withdrawStatus) : "—" });
    case "unknown":
      return t("payouts.errorWords.unknown");
    case "canceled":
      return t("payouts.errorWords.canceled");
    default:
      return "";
  }
}
