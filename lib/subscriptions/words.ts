import type { MessageKey } from "@/lib/i18n/messages/keys";
import type { DerivedState } from "./rules";
import type { Periodicity } from "./periods";

/** A message key and its values: the words themselves are in lib/i18n/messages/subscriptions.ts (pt-BR and English). */
export type Words = { key: MessageKey; values?: Record<string, string | number> };

const PERIODICITY_KEYS = {
  DAYS: "subscriptions.periodicity.days",
  WEEKS: "subscriptions.periodicity.weeks",
  MONTHS: "subscriptions.periodicity.months",
  YEARS: "subscriptions.periodicity.years",
} as const satisfies Record<Periodicity["type"], MessageKey>;

/** "mensal", "a cada 2 semanas", "anual", "a cada 10 dias"…; an unknown periodicity says so. */
export function periodicityWords(periodicity: Periodicity | null): Words {
  if (!periodicity) return { key: "subscriptions.periodicity.unknown" };
  return { key: PERIODICITY_KEYS[periodicity.type], values: { count: periodicity.every } };
}

/** "ativa", "aguardando pagamento", "em atraso há 5 dias", "perdida", "cancelada", "desconhecido". */
export function stateWords(state: DerivedState): Words {
  switch (state.state) {
    case "overdue":
      return { key: "subscriptions.state.overdue", values: { count: state.days } };
    case "awaiting_payment":
      return { key: "subscriptions.state.awaiting_payment" };
    default:
      return { key: `subscriptions.state.${state.state}` };
  }
}
