"use client";

import * as React from "react";
import { Check, Copy } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { cn } from "@/lib/utils";
import { useT } from "@/lib/i18n/client";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Hint } from "@/components/ui/hint";

const CONFIRMATION_MS = 2000;

/** Clipboard API needs a secure context; the textarea fallback covers plain-http LAN deployments. */
async function writeToClipboard(text: string): Promise<void> {
  if (typeof navigator !== "undefined" && navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const textarea = document.createElement("textarea");
  textarea.value = text;
  textarea.setAttribute("readonly", "");
  textarea.style.position = "fixed";
  textarea.style.opacity = "0";
  document.body.appendChild(textarea);
  textarea.select();
  try {
    if (!document.execCommand("copy")) throw new Error("copy command rejected");
  } finally {
    textarea.remove();
  }
}

export type CopyButtonProps = Omit<ButtonProps, "onClick" | "children" | "value" | "asChild"> & {
  /** The text put on the clipboard. */
  value: string;
  /** Accessible name and tooltip; defaults to "Copiar". */
  label?: string;
  /** Show a visible label next to the icon (otherwise icon-only). */
  showLabel?: boolean;
  /** Toast shown on success; defaults to "Copiado". Pass `false` to stay silent. */
  toastMessage?: string | false;
  onCopied?: () => void;
};

export function CopyButton({
  value,
  label,
  showLabel = false,
  toastMessage,
  onCopied,
  variant = "ghost",
  size,
  className,
  ...props
}: CopyButtonProps) {
  const t = useT();
  const [copied, setCopied] = React.useState(false);

  React.useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const accessibleName = label ?? t("ui.copy");

  async function handleCopy() {
    try {
      await writeToClipboard(value);
      setCopied(true);
      if (toastMessage !== false) toast.success(toastMessage ?? t("ui.copied"));
      onCopied?.();
    } catch {
      toast.error(t("ui.copyFailed"));
    }
  }

  const Icon = copied ? Check : Copy;
  const button = (
    <Button
      type="button"
      variant={variant}
      size={size ?? (showLabel ? "sm" : "icon")}
      className={cn(!showLabel && !size && "size-7 text-muted-foreground hover:text-foreground", className)}
      aria-label={showLabel ? undefined : accessibleName}
      data-copied={copied || undefined}
      onClick={handleCopy}
      {...props}
    >
      <Icon aria-hidden="true" className={cn("size-3.5", copied && "text-success")} />
      {showLabel ? <span>{copied ? t("ui.copied") : accessibleName}</span> : null}
      <span className="sr-only" aria-live="polite">
        {copied ? t("ui.copied") : ""}
      </span>
    </Button>
  );

  if (showLabel) return button;
  return <Hint content={copied ? t("ui.copied") : accessibleName}>{button}</Hint>;
}
