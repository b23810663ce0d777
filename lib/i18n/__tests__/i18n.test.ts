import { describe, expect, it } from "vitest";
import { createFormatters, currencyFormatter } from "@/lib/i18n/format";
import { IntlMessageFormat } from "intl-messageformat";
import { createTranslator } from "@/lib/i18n/translate";
import { dictionaries } from "@/lib/i18n/messages";
import { messageLeaves } from "./message-leaves";

const leaves = (node: unknown): string[] => messageLeaves(node).map(([key]) => key);

describe("i18n", () => {
  it("formats money as BRL the Brazilian way", () => {
    expect(createFormatters("pt-BR").money(1234.56)).toBe("R$ 1.234,56");
    expect(createFormatters("en").money(1234.56)).toBe("R$1,234.56");
  });

  it("shows dates in São Paulo time, with the zone where asked", () => {
    const instant = "2026-03-01T02:30:00Z";
    expect(createFormatters("pt-BR").dateTime(instant)).toBe("28/02/2026, 23:30");
    expect(createFormatters("pt-BR").dateTimeZoned(instant)).toMatch(/28\/02\/2026,? 23:30:00 (BRT|GMT-3)/);
  });

  it("interpolates variables and shows unknown keys as themselves", () => {
    const t = createTranslator("pt-BR", dictionaries["pt-BR"]);
    expect(t("home.greeting", { name: "Ana" })).toBe("Olá, Ana");
    expect(t("missing.key")).toBe("missing.key");
    expect(createTranslator("en", dictionaries.en)("home.greeting", { name: "Ana" })).toBe("Hello, Ana");
  });

  it("uses each language's plural rules, with numbers in its own format", () => {
    const pt = createTranslator("pt-BR", dictionaries["pt-BR"]);
    const en = createTranslator("en", dictionaries.en);
    expect(pt("activity.event.deliveredTimes", { count: 1 })).toBe("Recebida 1 vez");
    expect(pt("activity.event.deliveredTimes", { count: 3 })).toBe("Recebida 3 vezes");
    expect(en("activity.event.deliveredTimes", { count: 1 })).toBe("Received once");
    expect(pt("overview.count", { count: 1234 })).toBe("1.234 transações");
    expect(en("overview.count", { count: 1 })).toBe("1 transaction");
  });

  it("has no message written with (s) or (es) instead of a plural rule, and every message compiles as ICU", () => {
    for (const locale of ["pt-BR", "en"] as const) {
      for (const key of leaves(dictionaries[locale])) {
        const template = key
          .split(".")
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], dictionaries[locale]) as string;
        expect(template, key).not.toMatch(/\((s|es|ões|ies)\)/);
        expect(() => new IntlMessageFormat(template, locale), key).not.toThrow();
      }
    }
  });

  it("has every pt-BR message in English too, and none empty", () => {
    const pt = leaves(dictionaries["pt-BR"]).sort();
    const en = leaves(dictionaries.en).sort();
    expect(en).toEqual(pt);
    const t = createTranslator("en", dictionaries.en);
    for (const key of en) expect(t(key).trim(), key).not.toBe("");
  });

  it("writes an amount in its own currency, and one Intl does not know with its code, never as reais", () => {
    expect(currencyFormatter("pt-BR", "BRL")(1234.5)).toBe("R$ 1.234,50");
    expect(currencyFormatter("pt-BR", "USD")(1234.5)).toBe("US$ 1.234,50");
    expect(currencyFormatter("en", "BRL")(1234.5)).toBe("R$1,234.50");
    expect(currencyFormatter("pt-BR", "XYZW")(1234.5)).toBe("XYZW 1.234,50");
    expect(currencyFormatter("pt-BR", "XYZW", { compact: true })(1_500_000)).toBe("XYZW 1,5 mi");
    expect(currencyFormatter("pt-BR", "BRL", { compact: true })(1_500_000)).toBe("R$ 1,5 mi");
  });
});
