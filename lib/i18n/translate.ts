import type { Locale } from "./config";
import { dictionaries, type MessageKey } from "./messages";

export type TranslateVars = Record<string, string | number>;
export type Translate = (key: MessageKey | (string & {}), vars?: TranslateVars) => string;

function lookup(dict: Record<string, unknown>, key: string): string | undefined {
  const value = key.split(".").reduce<unknown>(
    (node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined),
    dict,
  );
  return typeof value === "string" ? value : undefined;
}

export function hasMessage(locale: Locale, key: string): boolean {
  return lookup(dictionaries[locale], key) !== undefined;
}

/** Unknown keys come back as the key itself so a missing translation is visible, never blank. */
export function createTranslator(locale: Locale): Translate {
  return (key, vars) => {
    const template = lookup(dictionaries[locale], key) ?? lookup(dictionaries["pt-BR"], key) ?? key;
    if (!vars) return template;
    return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
  };
}
