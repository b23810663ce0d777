import { currencyFormatter } from "@/lib/i18n/format";
import { toE164Phone } from "@/lib/br/phone";

/**
 * The recovery message a producer copies or sends: a template with {nome} {valor} {produto}
 * {link}. Browser-safe, so the settings form previews it and the worklist renders it alike.
 */

export const RECOVERY_PLACEHOLDERS = ["nome", "valor", "produto", "link"] as const;
export type RecoveryPlaceholder = (typeof RECOVERY_PLACEHOLDERS)[number];

export const DEFAULT_RECOVERY_TEMPLATE =
  "Olá, {nome}! Vimos que o seu pagamento de {valor} para {produto} ainda não foi concluído. " +
  "Se ainda quiser garantir a sua compra, é só pagar por aqui: {link}. Qualquer dúvida, responda esta mensagem.";

/** For a subscription's unpaid or failed renewal; {link} is empty when the renewal can no longer be paid (a fresh charge's code goes instead). */
export const DEFAULT_RENEWAL_TEMPLATE =
  "Olá, {nome}! A renovação da sua assinatura de {produto}, no valor de {valor}, ainda não foi paga. " +
  "Para continuar com tudo em dia, é só pagar por aqui: {link}\nQualquer dúvida, responda esta mensagem.";

export type RecoveryMessageValues = {
  name: string | null;
  amountCents: number | null;
  currency: string;
  product: string | null;
  link: string | null;
};

/** The first name, or a neutral greeting word when the name is unknown. */
function firstName(name: string | null): string {
  const first = name?.trim().split(/\s+/)[0];
  return first && first.length > 0 ? first : "tudo bem";
}

function amountText(cents: number | null, currency: string): string {
  return cents === null ? "" : currencyFormatter("pt-BR", currency)(cents / 100);
}

/** The template with its placeholders filled; unknown placeholders are left as typed. */
export function renderRecoveryMessage(template: string, values: RecoveryMessageValues): string {
  const filled: Record<RecoveryPlaceholder, string> = {
    nome: firstName(values.name),
    valor: amountText(values.amountCents, values.currency),
    produto: values.product?.trim() || "o seu pedido",
    link: values.link ?? "",
  };
  return template.replace(/\{(nome|valor|produto|link)\}/g, (_, key: RecoveryPlaceholder) => filled[key]);
}

/** A wa.me address carrying the text, or null when the phone is not a valid Brazilian number. */
export function whatsappUrl(phone: string | null, text: string): string | null {
  const e164 = phone ? toE164Phone(phone) : null;
  return e164 ? `https://wa.me/${e164.slice(1)}?text=${encodeURIComponent(text)}` : null;
}

/** A mailto: address with a subject and the text, or null without an e-mail. */
export function mailtoUrl(email: string | null, subject: string, text: string): string | null {
  if (!email || !email.includes("@")) return null;
  return `mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(text)}`;
}
