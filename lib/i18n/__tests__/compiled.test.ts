import { describe, expect, it, vi } from "vitest";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { compileDictionary } from "@/lib/i18n/compile";
import { createCompiledTranslator, type CompiledDictionary } from "@/lib/i18n/compiled";
import { ALL_AREAS, SHARED_AREAS } from "@/lib/i18n/areas";
import { createTranslator, type TranslateVars } from "@/lib/i18n/translate";
import { dictionaries } from "@/lib/i18n/messages";
import { LOCALES } from "@/lib/locale";
import { messageLeaves } from "./message-leaves";

/** Every combination of values that reaches each branch of a message's plurals and selects. */
function variants(elements: MessageFormatElement[]): TranslateVars[] {
  let results: TranslateVars[] = [{}];
  const visit = (list: MessageFormatElement[]) => {
    for (const element of list) {
      if (element.type === TYPE.argument) results = results.map((vars) => ({ [element.value]: `«${element.value}»`, ...vars }));
      if (element.type === TYPE.select) {
        const keys = Object.keys(element.options);
        results = results.flatMap((vars) => [...keys, "something-else"].map((key) => ({ ...vars, [element.value]: key })));
        for (const option of Object.values(element.options)) visit(option.value);
      }
      if (element.type === TYPE.plural) {
        results = results.flatMap((vars) => [0, 1, 2, 5, 21, 1234].map((n) => ({ ...vars, [element.value]: n })));
        for (const option of Object.values(element.options)) visit(option.value);
      }
    }
  };
  visit(elements);
  return results.slice(0, 200);
}

describe("messages as the browser gets them", () => {
  it("read exactly as the server's intl-messageformat reads them, for every message, language and branch", () => {
    let compared = 0;
    for (const locale of LOCALES) {
      const server = createTranslator(locale, dictionaries[locale]);
      const browser = createCompiledTranslator(locale, compileDictionary(dictionaries[locale]));
      for (const [key, template] of messageLeaves(dictionaries[locale])) {
        for (const vars of variants(parse(template))) {
          expect(browser(key, vars), `${locale} ${key} ${JSON.stringify(vars)}`).toBe(server(key, vars));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("carry plurals and selects parsed, and plain text as text", () => {
    const compiled = compileDictionary(dictionaries["pt-BR"]) as Record<string, Record<string, unknown>>;
    const event = compiled.activity.event as Record<string, unknown>;
    expect(Array.isArray(event.deliveredTimes)).toBe(true);
    expect(typeof (compiled.home as Record<string, unknown>).greeting).toBe("string");
  });

  it("say an unknown key as itself and a message missing its values as written, never blank", () => {
    const t = createCompiledTranslator("pt-BR", compileDictionary(dictionaries["pt-BR"]));
    expect(t("missing.key")).toBe("missing.key");
    expect(t("home.greeting")).toBe(createTranslator("pt-BR", dictionaries["pt-BR"])("home.greeting"));
    expect(t("activity.event.deliveredTimes")).toBe("activity.event.deliveredTimes");
  });
});

describe("messages per route", () => {
  it("name every area the dictionaries have, and the shared ones among them", () => {
    expect([...ALL_AREAS].sort()).toEqual(Object.keys(dictionaries["pt-BR"]).sort());
    for (const area of SHARED_AREAS) expect(ALL_AREAS).toContain(area);
  });

  it("say on the console when a page meets a key of an area its layouts did not send, and still show the key", () => {
    const shared = compileDictionary(dictionaries["pt-BR"]) as Record<string, CompiledDictionary>;
    const onlyShared = Object.fromEntries(SHARED_AREAS.map((area) => [area, shared[area]])) as CompiledDictionary;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const t = createCompiledTranslator("pt-BR", onlyShared);
      expect(t("charges.nav")).toBe("charges.nav");
      expect(t("common.cancel")).not.toBe("common.cancel");
      expect(t("nothing.here")).toBe("nothing.here");
      expect(errors).toHaveBeenCalledTimes(1);
      expect(String(errors.mock.calls[0][0])).toMatch(/^\[i18n\] "charges\.nav": the charges messages are not sent/);
    } finally {
      errors.mockRestore();
    }
  });
});
