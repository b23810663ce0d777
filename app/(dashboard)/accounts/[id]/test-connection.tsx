"use client";

import { useState } from "react";
import { CheckCircle2, PlugZap, XCircle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { gatewayErrorMessage } from "@/app/(dashboard)/[account]/transactions/gateway-error-message";
import { testConnectionAction } from "../actions";

type Outcome = { ok: true; text: string } | { ok: false; text: string };

export function TestConnection({ accountId }: { accountId: string }) {
  const t = useT();
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function run() {
    setPending(true);
    setOutcome(null);
    try {
      const result = await testConnectionAction({ accountId });
      if (!result.ok) setOutcome({ ok: false, text: t(result.error) });
      else if (result.data.ok) setOutcome({ ok: true, text: t("producer.connectionOk", { name: result.data.name }) });
      else setOutcome({ ok: false, text: gatewayErrorMessage(t, result.data) });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-2">
      <Button variant="outline" size="sm" onClick={run} loading={pending} title={t("producer.testConnectionHint")}>
        <PlugZap aria-hidden />
        {t("producer.testConnection")}
      </Button>
      {outcome && (
        <p
          role="status"
          data-testid="connection-result"
          data-ok={outcome.ok}
          className={outcome.ok ? "flex items-start gap-1.5 text-sm text-success" : "flex items-start gap-1.5 text-sm text-destructive"}
        >
          {outcome.ok ? (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
          ) : (
            <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          )}
          <span>
            {!outcome.ok && <span className="font-medium">{t("producer.connectionFailed")}: </span>}
            {outcome.text}
          </span>
        </p>
      )}
    </div>
  );
}
