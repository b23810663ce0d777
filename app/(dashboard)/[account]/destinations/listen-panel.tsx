"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { KeyRound, Terminal } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { toast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/client";
import { createListenKeyAction, revokeListenKeyAction } from "./actions";

type ListenKey = {
  id: string;
  last4: string;
  expiresAt: string;
  forwardTo: string | null;
  lastSeenAt: string | null;
  destinationHref: string | null;
};

/** `npm run listen`: a key for the developer's machine, shown once, with the command to paste. */
export function ListenPanel({ accountId, keys }: { accountId: string; keys: ListenKey[] }) {
  const t = useT();
  const router = useRouter();
  const [created, setCreated] = useState<{ token: string } | null>(null);
  const [pending, setPending] = useState(false);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const command = created
    ? `CONSOLE_LISTEN_KEY=${created.token} npm run listen -- --console ${origin} --forward-to http://localhost:8000/hook`
    : "";

  async function create() {
    setPending(true);
    try {
      const result = await createListenKeyAction({ accountId });
      if (!result.ok) return void toast.error(t(result.error));
      setCreated({ token: result.data.token });
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  async function revoke(keyId: string) {
    const result = await revokeListenKeyAction({ accountId, keyId });
    if (!result.ok) return void toast.error(t(result.error));
    toast.success(t("destinations.listen.revoked"));
    router.refresh();
  }

  return (
    <Card data-testid="listen-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Terminal className="size-4" aria-hidden /> {t("destinations.listen.title")}
        </CardTitle>
        <CardDescription>{t("destinations.listen.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {created ? (
          <div className="space-y-2 rounded-md border border-warning/40 bg-warning/5 p-3" data-testid="listen-key-created">
            <p className="font-medium">{t("destinations.listen.shownOnce")}</p>
            <div className="flex items-start gap-2">
              <code className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1.5 font-mono text-xs" data-testid="listen-command">
                {command}
              </code>
              <CopyButton value={command} label={t("destinations.listen.copyCommand")} size="icon" />
            </div>
            <p className="text-xs text-muted-foreground">{t("destinations.listen.commandHint")}</p>
          </div>
        ) : (
          <Button variant="outline" onClick={create} loading={pending}>
            <KeyRound /> {t("destinations.listen.create")}
          </Button>
        )}
        {keys.length > 0 && (
          <ul className="divide-y rounded-md border">
            {keys.map((key) => (
              <li key={key.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <div className="min-w-0">
                  <span className="font-mono text-xs">lst_…{key.last4}</span>
                  <span className="block text-xs text-muted-foreground">
                    {key.lastSeenAt && key.forwardTo
                      ? t("destinations.listen.session", { forwardTo: key.forwardTo, lastSeen: key.lastSeenAt })
                      : t("destinations.listen.unused")}
                    {" · "}
                    {t("destinations.listen.expires", { at: key.expiresAt })}
                  </span>
                </div>
                <div className="flex gap-1">
                  {key.destinationHref && (
                    <Button variant="ghost" size="sm" asChild>
                      <Link href={key.destinationHref}>{t("destinations.listen.attempts")}</Link>
                    </Button>
                  )}
                  <Button variant="ghost" size="sm" onClick={() => revoke(key.id)}>
                    {t("destinations.listen.revoke")}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
