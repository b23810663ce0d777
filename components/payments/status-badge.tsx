"use client";

import { Badge, type BadgeProps } from "@/components/ui/badge";
import { AsItCame } from "@/components/ui/code-word";
import { useI18n } from "@/lib/i18n/client";
import { machineKindForOperation, type MachineKind } from "@/lib/status/machine";
import { statusLabel } from "@/lib/status/labels";

const TONE: Record<string, NonNullable<BadgeProps["variant"]>> = {
  awaiting: "warning",
  paid: "success",
  active: "success",
  completed: "success",
  approved: "success",
  failed: "destructive",
  refused: "destructive",
  canceled: "secondary",
  expired: "secondary",
  ended: "secondary",
  paused: "secondary",
  refunded: "secondary",
  charged_back: "destructive",
};

/** A status in words, for text that is not a badge (a toast, a sentence). */
export function useStatusWords(): (kind: MachineKind, status: string) => string {
  const { t, has } = useI18n();
  return (kind, status) => statusLabel(t, has, kind, status).label;
}

/**
 * A status as words with a colour, the gateway's own code in the tooltip. Whatever the gateway
 * spells (`OK` at creation, `PENDING` later) reads the same; a status the console does not know
 * is shown verbatim, neutral, never as paid.
 */
export function StatusBadge({
  status,
  kind = "transaction",
  operationKind,
  empty = "—",
  neutral = false,
  className,
}: {
  status: string | null | undefined;
  kind?: MachineKind;
  /** A ledger row's kind (charge, deposit or subscription) picks the machine. */
  operationKind?: string;
  empty?: string;
  /** What a notification claimed, not what the gateway confirmed: words without the colour of money. */
  neutral?: boolean;
  className?: string;
}) {
  const { t, has } = useI18n();
  if (!status) return <span className="text-xs text-muted-foreground italic">{empty}</span>;
  const machineKind = operationKind ? machineKindForOperation(operationKind) : kind;
  const { label, state, known } = statusLabel(t, has, machineKind, status);
  return (
    <Badge
      variant={known && state && !neutral ? (TONE[state] ?? "outline") : "outline"}
      className={className}
      title={t("status.gatewayCode", { code: status })}
      data-testid="status-badge"
      data-status={status}
      data-state={state ?? undefined}
    >
      {known ? label : <AsItCame code={status} suffix={label.slice(label.indexOf(status) + status.length)} />}
    </Badge>
  );
}
