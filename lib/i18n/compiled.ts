import { TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser/lib/types";
import type { Locale } from "@/lib/locale";
import type { Translate, TranslateVars } from "./translate";
import { isArea } from "./areas";
import { valueAt } from "./tree";
import { pluralRules as portuguesePluralRules } from "./plural";

/**
 * A message as the browser gets it: plain text, or ICU MessageFormat already parsed on the
 * server (lib/i18n/server.ts), so the ICU parser never ships in a script chunk.
 */
export type CompiledMessage = string | MessageFormatElement[];
export type CompiledDictionary = { [key: string]: CompiledMessage | CompiledDictionary };

export function lookupCompiled(dict: CompiledDictionary, key: string): CompiledMessage | undefined {
  const node = valueAt(dict, key);
  return typeof node === "string" || Array.isArray(node) ? (node as CompiledMessage) : undefined;
}

class UnsupportedElement extends Error {}

const reported = new Set<string>();

/**
 * A key of an area this page's layouts did not send shows as the key: said once on the console,
 * where the e2e fixture (e2e/fixtures/test.ts) fails the test that met it.
 */
export function reportUnsentArea(dict: CompiledDictionary, key: string): void {
  const area = key.split(".")[0];
  if (!isArea(area) || area in dict || reported.has(key)) return;
  reported.add(key);
  console.error(`[i18n] "${key}": the ${area} messages are not sent to this page (add "${area}" to its layout's RouteMessages)`);
}

/** A message whose only ICU syntax is `{name}` (the server sends those as text). */
function fillPlaceholders(message: string, vars: TranslateVars): string {
  return message.replace(/\{\s*(\w+)\s*\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new UnsupportedElement(`missing ${name}`);
    return String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralRule(locale: Locale, type: "cardinal" | "ordinal"): Intl.PluralRules {
  const key = `${locale}:${type}`;
  let rules = pluralRules.get(key);
  if (!rules) pluralRules.set(key, (rules = portuguesePluralRules(locale, { type })));
  return rules;
}

/** Formats parsed ICU the way intl-messageformat does for what the console writes: arguments, selects, plurals and `#`. */
function formatElements(elements: MessageFormatElement[], locale: Locale, vars: TranslateVars, pluralValue?: number): string {
  let out = "";
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal:
        out += element.value;
        break;
      case TYPE.argument: {
        const value = vars[element.value];
        if (value === undefined) throw new UnsupportedElement(`missing ${element.value}`);
        out += String(value);
        break;
      }
      case TYPE.pound:
        out += pluralValue === undefined ? "#" : new Intl.NumberFormat(locale).format(pluralValue);
        break;
      case TYPE.select: {
        const option = element.options[String(vars[element.value])] ?? element.options.other;
        if (!option) throw new UnsupportedElement(`no option for ${element.value}`);
        out += formatElements(option.value, locale, vars, pluralValue);
        break;
      }
      case TYPE.plural: {
        const raw = vars[element.value];
        if (raw === undefined) throw new UnsupportedElement(`missing ${element.value}`);
        const value = Number(raw);
        const option =
          element.options[`=${value}`] ??
          element.options[pluralRule(locale, element.pluralType ?? "cardinal").select(value - element.offset)] ??
          element.options.other;
        if (!option) throw new UnsupportedElement(`no option for ${element.value}`);
        out += formatElements(option.value, locale, vars, value - element.offset);
        break;
      }
      default:
        throw new UnsupportedElement(`element type ${element.type}`);
    }
  }
  return out;
}

/**
 * As the server's translator: unknown keys come back as the key itself and a message that cannot
 * be formatted as written (its key, when it travelled parsed), never blank.
 */
export function createCompiledTranslator(locale: Locale, dict: CompiledDictionary): Translate {
  return (key, vars) => {
    const message = lookupCompiled(dict, key);
    if (message === undefined) {
      reportUnsentArea(dict, key);
      return key;
    }
    try {
      if (typeof message === "string") return message.includes("{") ? fillPlaceholders(message, vars ?? {}) : message;
      return formatElements(message, locale, vars ?? {});
    } catch {
      return typeof message === "string" ? message : key;
    }
  };
}
