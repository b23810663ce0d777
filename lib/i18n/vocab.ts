/**
 * Codes in words, from the one catalogue (lib/i18n/messages/vocab.ts). Browser-safe: server pages
 * pass their translator, client components theirs (components/ui/code-word.tsx).
 */
/**
 * Each group of codes: who writes them (an unknown code of the gateway's is shown as the
 * gateway's) and the case the catalogue keeps them in, so that "pix" and "PIX" read the same.
 */
const GROUPS = {
  method: { by: "gateway", case: "upper" },
  operation: { by: "console", case: "as is" },
  submission: { by: "console", case: "as is" },
  gatewayEvent: { by: "gateway", case: "upper" },
  outgoingEvent: { by: "console", case: "as is" },
  batch: { by: "console", case: "upper" },
  payoutAccount: { by: "gateway", case: "upper" },
  periodicity: { by: "gateway", case: "as is" },
  offerType: { by: "gateway", case: "as is" },
  purchaseType: { by: "gateway", case: "as is" },
  pixKeyType: { by: "gateway", case: "lower" },
  documentType: { by: "gateway", case: "lower" },
  // Read on the audit page only: its words travel with that page's messages.
  audit: { by: "console", case: "as is", area: "audit.actions" },
} as const satisfies Record<string, { by: "gateway" | "console"; case: "upper" | "lower" | "as is"; area?: string }>;
export type VocabGroup = keyof typeof GROUPS;

type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function vocabKey(group: VocabGroup, code: string): string {
  const settings = GROUPS[group];
  const area = "area" in settings ? settings.area : `vocab.${group}`;
  return `${area}.${code.trim().replace(/\./g, "_")}`;
}

export type CodeWords = {
  /** The words to show (for an unknown code, the code followed by whose it is). */
  label: string;
  known: boolean;
  /** For an unknown code, what follows it ("(do gateway)"), so the code itself can sit in its own element. */
  suffix: string;
};

function normalise(group: VocabGroup, code: string): string {
  const trimmed = code.trim();
  const { case: letters } = GROUPS[group];
  return letters === "upper" ? trimmed.toUpperCase() : letters === "lower" ? trimmed.toLowerCase() : trimmed;
}

export function codeWords(t: Translate, has: (key: string) => boolean, group: VocabGroup, code: string): CodeWords {
  const key = vocabKey(group, normalise(group, code));
  if (code.trim() && has(key)) return { label: t(key), known: true, suffix: "" };
  const template = GROUPS[group].by === "gateway" ? "vocab.fromGateway" : "vocab.uncatalogued";
  const label = t(template, { code });
  return { label, known: false, suffix: label.slice(label.indexOf(code) + code.length) };
}

/** Plain text, for options, attributes, chart legends and CSV-free places that cannot hold markup. */
export function codeText(t: Translate, has: (key: string) => boolean, group: VocabGroup, code: string | null | undefined): string {
  if (code === null || code === undefined || code === "") return "—";
  return codeWords(t, has, group, code).label;
}
