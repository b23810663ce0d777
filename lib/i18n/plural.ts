/**
 * Plural rules as the console writes counts: CLDR puts 0 in Portuguese's "one" ("0 transação"),
 * but Brazilian usage counts nothing in the plural ("0 transações"); every other number follows CLDR.
 */
export function pluralRules(locale: string, options?: Intl.PluralRulesOptions): Intl.PluralRules {
  const rules = new Intl.PluralRules(locale, options);
  if (options?.type === "ordinal" || !locale.toLowerCase().startsWith("pt")) return rules;
  return new Proxy(rules, {
    get(target, property) {
      if (property === "select") return (n: number) => (n === 0 ? "other" : target.select(n));
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
