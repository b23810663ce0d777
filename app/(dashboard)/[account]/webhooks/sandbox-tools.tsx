"use client";

import { StatusBadge } from "@/components/payments/status-badge";
import { CodeWord, useCodeText } from "@/components/ui/code-word";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { FlaskConical, Send } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useI18n } from "@/lib/i18n/client";
import type { SANDBOX_EVENTS } from "@/lib/notifications/schemas";
import type { RecentLedgerRow } from "@/lib/notifications/queries";
import { configureSandboxWebhookUrlAction, emitSandboxEventAction } from "./actions";

// The event names come from the page (the server), so the browser does not load the schema module they live in.
type Props = {
  accountId: string;
  events: typeof SANDBOX_EVENTS;
  recent: RecentLedgerRow[];
  defaultWebhookUrl: string | null;
  consoleWebhookUrl: string;
};

export function SandboxTools({ accountId, events, recent, defaultWebhookUrl, consoleWebhookUrl }: Props) {
  const { t, format } = useI18n();
  const codeText = useCodeText();
  const router = useRouter();
  const [transactionId, setTransactionId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pendingEvent, setPendingEvent] = useState<string | null>(null);
  const [configuring, startConfiguring] = useTransition();

  async function send(event: (typeof SANDBOX_EVENTS)[number]) {
    setError(null);
    setPendingEvent(event);
    try {
      const result = await emitSandboxEventAction({ accountId, transactionId, event });
      if (result.ok) {
        toast.success(t("activity.inbox.sandbox.sent", { event: codeText("gatewayEvent", event) }));
        return;
      }
      const fieldError = result.fieldErrors?.transactionId?.[0];
      const text = fieldError ? t(fieldError) : t(result.error, { message: result.message ?? "" });
      setError(text);
      toast.error(text);
    } finally {
      setPendingEvent(null);
    }
  }

  function pointSandboxHere() {
    startConfiguring(async () => {
      const result = await configureSandboxWebhookUrlAction({ accountId });
      if (result.ok) {
        toast.success(t("activity.inbox.sandbox.configured"));
        router.refresh();
      } else toast.error(t(result.error));
    });
  }

  const pointsHere = defaultWebhookUrl === consoleWebhookUrl;

  return (
    <Card data-testid="sandbox-tools">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FlaskConical className="size-4" /> {t("activity.inbox.sandbox.title")}
        </CardTitle>
        <CardDescription>{t("activity.inbox.sandbox.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="space-y-2">
          <Label htmlFor="sandbox-transaction-id">{t("activity.inbox.sandbox.transaction")}</Label>
          <Input
            id="sandbox-transaction-id"
            value={transactionId}
            onChange={(e) => setTransactionId(e.target.value)}
            placeholder={t("activity.inbox.sandbox.transactionPlaceholder")}
            aria-invalid={!!error}
            className="font-mono"
            autoComplete="off"
          />
          {error && (
            <p className="text-sm text-destructive" role="alert">
              {error}
            </p>
          )}
          {recent.length > 0 && (
            <div className="space-y-1.5 pt-1">
              <p className="text-xs text-muted-foreground">{t("activity.inbox.sandbox.recent")}</p>
              <div className="flex flex-wrap gap-1.5">
                {recent.map((row) => (
                  <Button
                    key={row.id}
                    type="button"
                    size="sm"
                    variant={transactionId === row.gatewayTransactionId ? "secondary" : "outline"}
                    className="h-auto max-w-full py-1 font-mono text-xs"
                    onClick={() => setTransactionId(row.gatewayTransactionId)}
                    title={row.gatewayTransactionId}
                  >
                    <span className="truncate">{row.identifier}</span>
                    {row.amountCents !== null && <span className="text-muted-foreground">{format.money(row.amountCents / 100)}</span>}
                    {row.status && <StatusBadge status={row.status} />}
                  </Button>
                ))}
              </div>
            </div>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {events.map((event) => (
            <Button
              key={event}
              type="button"
              variant="outline"
              className="max-w-full justify-start text-xs"
              loading={pendingEvent === event}
              disabled={pendingEvent !== null}
              onClick={() => void send(event)}
              data-testid={`emit-${event}`}
            >
              <Send /> <CodeWord group="gatewayEvent" code={event} />
            </Button>
          ))}
        </div>
        <div className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0 space-y-1 text-sm">
            <p className="font-medium">{t("activity.inbox.sandbox.defaultUrl")}</p>
            <p className="text-muted-foreground" data-testid="sandbox-default-url">
              {pointsHere
                ? t("activity.inbox.sandbox.defaultUrlOk")
                : defaultWebhookUrl
                  ? t("activity.inbox.sandbox.defaultUrlCurrent", { url: defaultWebhookUrl })
                  : t("activity.inbox.sandbox.defaultUrlNone")}
            </p>
          </div>
          {!pointsHere && (
            <Button type="button" onClick={pointSandboxHere} loading={configuring} className="shrink-0">
              {t("activity.inbox.sandbox.useThisConsole")}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
