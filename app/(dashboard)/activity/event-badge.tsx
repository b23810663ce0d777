"use client";

import { Badge } from "@/components/ui/badge";
import { CodeWord } from "@/components/ui/code-word";
import { useT } from "@/lib/i18n/client";
import type { FeedNotification } from "@/lib/feed/types";

const VARIANTS: Record<string, "success" | "warning" | "destructive" | "info" | "secondary"> = {
  TRANSACTION_CREATED: "info",
  TRANSACTION_PAID: "success",
  TRANSACTION_CANCELED: "secondary",
  TRANSACTION_REFUNDED: "warning",
  TRANSACTION_CHARGED_BACK: "destructive",
};

/** The event in words, its name as received in `data-raw`; names this console does not know are shown as received, with a marker. */
export function EventBadge({ event }: { event: Pick<FeedNotification, "event" | "known" | "kind"> }) {
  const t = useT();
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge variant={event.known ? (VARIANTS[event.event ?? ""] ?? "secondary") : "outline"}>
        <CodeWord group="gatewayEvent" code={event.event} />
      </Badge>
      {event.kind === "transfer" ? (
        <Badge variant="secondary">{t("activity.feed.transfer")}</Badge>
      ) : event.kind === "unknown" ? (
        <Badge variant="warning" data-testid="unknown-shape">
          {t("activity.feed.unknownShape")}
        </Badge>
      ) : !event.known ? (
        <Badge variant="warning" data-testid="unknown-event">
          {t("activity.feed.unknownEvent")}
        </Badge>
      ) : null}
    </span>
  );
}

const CONFIRMATION_VARIANTS = {
  confirming: "warning",
  confirmed: "success",
  contradicted: "destructive",
  unconfirmable: "secondary",
} as const;

/** Whether the console believes the notification: confirming with the gateway, confirmed, or contradicted by it. */
export function ConfirmationBadge({ event }: { event: Pick<FeedNotification, "confirmation" | "applied" | "kind"> }) {
  const t = useT();
  const state = event.kind === "payment" && !event.applied ? "confirming" : event.confirmation;
  if (!state) return null;
  return (
    <Badge variant={CONFIRMATION_VARIANTS[state]} data-testid="confirmation" data-confirmation={state}>
      {t(`activity.confirmation.${state}`)}
    </Badge>
  );
}
