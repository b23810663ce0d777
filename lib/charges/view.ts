import type { OperationKind } from "@/lib/db/tables/ledger";
import { OPERATION_KIND_OF, type ChargeFormKind } from "./form-values";

/** The form that creates a ledger kind (null for rows the console did not create). */
export function formKindOf(kind: OperationKind): ChargeFormKind | null {
  const entry = Object.entries(OPERATION_KIND_OF).find(([, operation]) => operation === kind);
  return entry ? (entry[0] as ChargeFormKind) : null;
}
