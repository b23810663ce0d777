"use client";

import { useI18n } from "@/lib/i18n/client";
import { codeText, codeWords, type VocabGroup } from "@/lib/i18n/vocab";
import { cn } from "@/lib/utils";

/**
 * A code (method, kind, event, audit action, type) as words; the code itself stays secondary, in
 * `data-raw` and the tooltip. A code the catalogue does not know is shown as it came, marked as the
 * gateway's (or as undescribed), the code in its own `data-raw` element.
 */
export function CodeWord({ group, code, className }: { group: VocabGroup; code: string | null | undefined; className?: string }) {
  const { t, has } = useI18n();
  if (!code) return <span className={className}>—</span>;
  const words = codeWords(t, has, group, code);
  if (words.known)
    return (
      <span className={className} data-raw={code} title={code}>
        {words.label}
      </span>
    );
  return (
    <span className={cn("break-words", className)}>
      <AsItCame code={code} suffix={words.suffix} />
    </span>
  );
}

/** A code the console does not know, as it came (in its own `data-raw` element), then whose it is. */
export function AsItCame({ code, suffix }: { code: string; suffix: string }) {
  return (
    <>
      <span data-raw={code} className="font-mono text-xs">
        {code}
      </span>
      {suffix}
    </>
  );
}

/** The same words as plain text, for options and attributes. */
export function useCodeText(): (group: VocabGroup, code: string | null | undefined) => string {
  const { t, has } = useI18n();
  return (group, code) => codeText(t, has, group, code);
}
