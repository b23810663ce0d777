import "server-only";
import { isIPv4 } from "@/lib/br/ip";
import { saoPauloDate } from "@/lib/i18n/format";
import { formatMoneyInput } from "@/lib/br/money";
import { formatDocument } from "@/lib/br/document";
import { formatBrPhone } from "@/lib/br/phone";
import { getLedgerRow } from "@/lib/ledger/queries";
import { RENEWAL_METADATA_KEY, renewalOf, type RenewalOf } from "@/lib/subscriptions/dunning";
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
      /** Set when the old charge is a subscription's renewal: the new Pix charge is made for it (`metadata.renovacao`). */
      renewal?: Pick<RenewalOf, "subscriptionId" | "subscriptionIdentifier" | "number">;
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
  if (kind === "pix" && row.origin !== "console") {
    const renewal = await renewalOf(accountId, row.id);
    if (renewal) return { state: "copied", source, values: renewalValues(renewal), buyerIp: null, renewal };
  }
  const rowKind = row.origin === "console" ? (chargeKindOf(row.kind)?.kind ?? null) : null;
  if (rowKind !== kind || !row.request) return { state: "otherKind", source: { ...source, kind: rowKind } };
  const values = formValuesFromRequest(row.request, { today: saoPauloDate(), createdOn: saoPauloDate(row.createdAt) });
  const buyerIp = typeof row.request.clientIp === "string" && isIPv4(row.request.clientIp) ? row.request.clientIp : null;
  return { state: "copied", source, values, buyerIp };
}

/**
 * A fresh Pix charge for a subscription's renewal (the recovery list's "Nova cobrança"): its amount
 * and customer, and the renewal named in `metadata.renovacao` so the charge counts for it. No
 * products: the renewal's amount is the whole charge.
 */
function renewalValues(renewal: RenewalOf): Partial<ChargeFormValues> {
  const values: Partial<ChargeFormValues> = {
    client: {
      name: renewal.client.name ?? "",
      email: renewal.client.email ?? "",
      phone: renewal.client.phone ? formatBrPhone(renewal.client.phone) : "",
      document: renewal.client.document ? formatDocument(renewal.client.document) : "",
    },
    metadata: [{ key: RENEWAL_METADATA_KEY, value: renewal.gatewayTransactionId }],
  };
  if (renewal.amountCents !== null && renewal.currency === "BRL") values.amount = formatMoneyInput(renewal.amountCents / 100);
  return values;
}
