/**
 * Codes in words, from the one catalogue (lib/i18n/messages/vocab.ts). Browser-safe: server pages
 * pass their translator, client components theirs (components/ui/code-word.tsx).
 */
export const VOCAB_GROUPS = [
  "method",
  "operation",
  "submission",
  "gatewayEvent",
  "outgoingEvent",
  "batch",
  "payoutAccount",
  "periodicity",
  "offerType",
  "purchaseType",
  "pixKeyType",
  "documentType",
  "audit",
] as const;
export type VocabGroup = (typeof VOCAB_GROUPS)[number];

/** Groups whose codes the gateway writes: an unknown one is shown as the gateway's. */
const GATEWAY_GROUPS: ReadonlySet<VocabGroup> = new Set([
  "method",
  "gatewayEvent",
  "payoutAccount",
  "periodicity",
  "offerType",
  "purchaseType",
  "pixKeyType",
  "documentType",
]);

type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function vocabKey(group: VocabGroup, code: string): string {
  return `vocab.${group}.${code.trim().replace(/\./g, "_")}`;
}

export type CodeWords = {
  /** The words to show (for an unknown code, the code followed by whose it is). */
  label: string;
  known: boolean;
  /** For an unknown code, what follows it ("(do gateway)"), so the code itself can sit in its own element. */
  suffix: string;
};

/** Methods the gateway writes in any case ("pix", "credit_card") read the same. */
function normalise(group: VocabGroup, code: string): string {
  const trimmed = code.trim();
  if (group === "method" || group === "batch" || group === "gatewayEvent" || group === "payoutAccount") return trimmed.toUpperCase();
  return group === "pixKeyType" || group === "documentType" ? trimmed.toLowerCase() : trimmed;
}

export function codeWords(t: Translate, has: (key: string) => boolean, group: VocabGroup, code: string): CodeWords {
  const key = vocabKey(group, normalise(group, code));
  if (code.trim() && has(key)) return { label: t(key), known: true, suffix: "" };
  const template = GATEWAY_GROUPS.has(group) ? "vocab.fromGateway" : "vocab.uncatalogued";
  const label = t(template, { code });
  return { label, known: false, suffix: label.slice(label.indexOf(code) + code.length) };
}

/** Plain text, for options, attributes, chart legends and CSV-free places that cannot hold markup. */
export function codeText(t: Translate, has: (key: string) => boolean, group: VocabGroup, code: string | null | undefined): string {
  if (code === null || code === undefined || code === "") return "—";
  return codeWords(t, has, group, code).label;
}
