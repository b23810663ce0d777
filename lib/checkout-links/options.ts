// The checkout form's choices, without zod (the browser loads the form's schema when it is first used).

export const CHECKOUT_PAYMENT_METHODS = ["PIX", "CREDIT_CARD", "BOLETO"] as const;
export const CHECKOUT_DOCUMENTS = ["CPF", "CNPJ"] as const;
export const CHECKOUT_CURRENCIES = ["BRL", "USD", "EUR", "all"] as const;
export const CHECKOUT_LANGUAGES = ["pt-BR", "en", "es", "all"] as const;
/** The interface does not list offer types; these are suggestions, any text is sent as typed. */
export const CHECKOUT_OFFER_TYPE_SUGGESTIONS = ["UNIQUE", "SUBSCRIPTION"] as const;
/** The colour keys the sandbox's checkout page reads; the interface does not name any. */
export const CHECKOUT_COLOR_KEYS = ["primary", "background", "text", "buttonText"] as const;
export type CheckoutColorKey = (typeof CHECKOUT_COLOR_KEYS)[number];
export const DEFAULT_CHECKOUT_COLORS: Record<CheckoutColorKey, string> = {
  primary: "#0f766e",
  background: "#ffffff",
  text: "#111827",
  buttonText: "#ffffff",
};
