"use client";

import { CodeWord } from "@/components/ui/code-word";
import { Badge } from "@/components/ui/badge";
import { useT } from "@/lib/i18n/client";
import type { DestinationDisabledReason, DestinationState } from "@/lib/db/tables/destinations";

export function DestinationStateBadge({ state, reason }: { state: DestinationState; reason: DestinationDisabledReason | null }) {
  const t = useT();
  if (state === "enabled") return <Badge variant="success">{t("destinations.state.enabled")}</Badge>;
  if (state === "paused") return <Badge variant="warning">{t("destinations.state.paused")}</Badge>;
  return (
    <Badge variant="destructive" title={reason ? t(`destinations.disabledReason.${reason}`) : undefined}>
      {t("destinations.state.disabled")}
    </Badge>
  );
}

/** An attempt's outcome in words: the HTTP status answered, or why there was none. */
export function AttemptOutcome({ httpStatus, error }: { httpStatus: number | null; error: string | null }) {
  const t = useT();
  if (httpStatus === null && error === null) return <Badge variant="secondary">{t("destinations.attempt.inFlight")}</Badge>;
  if (httpStatus !== null && httpStatus >= 200 && httpStatus < 300) return <Badge variant="success">HTTP {httpStatus}</Badge>;
  if (httpStatus !== null) {
    return (
      <Badge variant="destructive" title={error === "redirect" ? t("destinations.attempt.error.redirect") : undefined}>
        HTTP {httpStatus}
      </Badge>
    );
  }
  return <Badge variant="destructive">{t(`destinations.attempt.error.${error ?? "connection"}`)}</Badge>;
}

export function EventTypesSummary({ types }: { types: string[] | null }) {
  const t = useT();
  if (types === null) return <span>{t("destinations.allTypes")}</span>;
  return (
    <span title={types.join(", ")}>
      {types.length === 1 ? <CodeWord group="outgoingEvent" code={types[0]} /> : t("destinations.someTypes", { count: types.length })}
    </span>
  );
}
