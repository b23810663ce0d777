import "server-only";
import type { OperationKind } from "@/lib/db/tables/ledger";
import type { ChargeFormKind } from "./form-values";
import { chargeKindOf } from "./kinds";

/** The form that creates a ledger kind (null for rows the console did not create). */
export function formKindOf(kind: OperationKind): ChargeFormKind | null {
  return chargeKindOf(kind)?.kind ?? null;
}
