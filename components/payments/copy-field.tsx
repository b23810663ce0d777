"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/lib/utils";

/** A value the customer needs verbatim (Pix code, digitable line, address), with a copy button. */
export function CopyField({
  label,
  value,
  copyLabel,
  copiedMessage,
  display,
  className,
  testId,
}: {
  label: string;
  value: string;
  copyLabel: string;
  copiedMessage?: string;
  /** Shown instead of `value` (e.g. a digitable line with its spaces); the clipboard always gets `value`. */
  display?: string;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="text-muted-foreground text-xs font-medium tracking-wide uppercase">{label}</div>
      <div className="bg-muted/40 flex flex-col gap-2 rounded-lg border p-2 pl-3 sm:flex-row sm:items-start">
        <code
          data-testid={testId}
          data-value={value}
          data-raw
          className="min-w-0 flex-1 font-mono text-[13px] leading-5 break-all select-all"
        >
          {display ?? value}
        </code>
        <CopyButton
          value={value}
          label={copyLabel}
          showLabel
          variant="outline"
          size="sm"
          toastMessage={copiedMessage}
          className="shrink-0 self-end sm:self-start"
        />
      </div>
    </div>
  );
}
