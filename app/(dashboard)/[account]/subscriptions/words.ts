import "server-only";
import { fromCents } from "@/lib/br";
import type { createFormatters } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/translate";
import type { SubscriptionView } from "@/lib/subscriptions/queries";
import { periodicityWords, stateWords } from "@/lib/subscriptions/words";

const METHODS = ["PIX", "CREDIT_CARD", "CRYPTO"] as const;

/** What the subscriptions pages write: states and periodicities in words, money and dates, "desconhecido" for what was not told. */
export function subscriptionWords(t: Translate, format: ReturnType<typeof createFormatters>) {
  const unknown = t("subscriptions.unknown");
  return {
    unknown,
    state: (view: SubscriptionView) => t(stateWords(view.state).key, stateWords(view.state).values),
    periodicity: (view: SubscriptionView) => t(periodicityWords(view.periodicity).key, periodicityWords(view.periodicity).values),
    method: (method: string | null) =>
      method === null ? unknown : (METHODS as readonly string[]).includes(method) ? t(`subscriptions.methods.${method}`) : method,
    money: (cents: number | null) => (cents === null ? unknown : format.money(fromCents(cents))),
    date: (value: Date | null | undefined) => (value ? format.date(value) : unknown),
    dateTime: (value: Date | null | undefined) => (value ? format.dateTime(value) : unknown),
    month: (value: string) => format.month(value),
  };
}
export type SubscriptionWords = ReturnType<typeof subscriptionWords>;

/** The badge colour of a state. */
export function stateVariant(view: SubscriptionView) {
  switch (view.state.state) {
    case "active":
      return "success" as const;
    case "awaiting_payment":
      return "info" as const;
    case "overdue":
      return "warning" as const;
    case "lost":
    case "canceled":
      return "destructive" as const;
    default:
      return "outline" as const;
  }
}
