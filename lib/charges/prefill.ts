import "server-only";
import { isIPv4 } from "@/lib/br/ip";
import { saoPauloDate } from "@/lib/i18n/format";
import { getLedgerRow } from "@/lib/ledger/queries";
import { formValuesFromRequest, type ChargeFormKind, type ChargeFormValues } from "./form-values";
import { chargeKindOf } from "./kinds";

type Source = { id: string; identifier: string };

/**
 * What a new charge form starts from when its address names an old charge (`?from=<ledger id>`):
 * the old one's values, or why there are none. The form is always a new charge: fresh identifier,
 * no card.
 */
export type ChargePrefill =
  | {
      state: "copied";
      source: Source;
      values: Partial<ChargeFormValues>;
      /** The old charge's buyer IP: offered beside the field, never filled in unasked (another sale may have another buyer's address). */
      buyerIp: string | null;
    }
  /** No such charge in this account (another account's is no different from an unknown one). */
  | { state: "notFound" }
  /** A charge this form does not make: another kind, or one the console did not create (nothing to copy). */
  | { state: "otherKind"; source: Source & { kind: ChargeFormKind | null } };

/** Reads the old charge of this account only. Callers have checked `charges.create` on `accountId`. */
export async function chargePrefill(accountId: string, kind: ChargeFormKind, ledgerId: string): Promise<ChargePrefill> {
  const row = await getLedgerRow(accountId, ledgerId);
  if (!row) return { state: "notFound" };
  const source = { id: row.id, identifier: row.identifier };
  const rowKind = row.origin === "console" ? (chargeKindOf(row.kind)?.kind ?? null) : null;
  if (rowKind !== kind || !row.request) return { state: "otherKind", source: { ...source, kind: rowKind } };
  const values = formValuesFromRequest(row.request, { today: saoPauloDate(), createdOn: saoPauloDate(row.createdAt) });
  const buyerIp = typeof row.request.clientIp === "string" && isIPv4(row.request.clientIp) ? row.request.clientIp : null;
  return { state: "copied", source, values, buyerIp };
}
