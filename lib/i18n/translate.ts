import { IntlMessageFormat } from "intl-messageformat";
import type { Locale } from "@/lib/locale";
import type { MessageKey } from "./messages/keys";
import { valueAt } from "./tree";
import { pluralRules } from "./plural";

const formatters = {
  getNumberFormat: (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
  getPluralRules: (locales?: string | string[], options?: Intl.PluralRulesOptions) =>
    pluralRules(Array.isArray(locales) ? (locales[0] ?? "pt-BR") : (locales ?? "pt-BR"), options),
};

export type TranslateVars = Record<string, string | number>;
export type Translate = (key: MessageKey | (string & {}), vars?: TranslateVars) => string;
/** One locale's messages: nested areas of ICU MessageFormat strings. */
export type Dictionary = Record<string, unknown>;

export function lookup(dict: Dictionary, key: string): string | undefined {
  const value = valueAt(dict, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * Messages are ICU MessageFormat (plurals, selects, `{name}` placeholders), formatted by
 * intl-messageformat for the locale. Unknown keys come back as the key itself so a missing
 * translation is visible, never blank; a template that cannot be formatted comes back as written.
 */
export function createTranslator(locale: Locale, dict: Dictionary, fallback?: Dictionary): Translate {
  const compiled = new Map<string, IntlMessageFormat | null>();
  return (key, vars) => {
    const template = lookup(dict, key) ?? (fallback ? lookup(fallback, key) : undefined) ?? key;
    if (!template.includes("{")) return template;
    let format = compiled.get(template);
    if (format === undefined) {
      try {
        format = new IntlMessageFormat(template, locale, undefined, { formatters });
      } catch {
        format = null;
      }
      compiled.set(template, format);
    }
    if (!format) return template;
    try {
      return String(format.format(vars ?? {}));
    } catch {
      return template;
    }
  };
}
