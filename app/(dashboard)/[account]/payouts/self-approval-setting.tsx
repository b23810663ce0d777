"use client";

import { useState } from "react";
import { TriangleAlert, UserCheck } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { DialogFooter } from "@/components/ui/dialog-layout";
import { useT } from "@/lib/i18n/client";
import { setSelfApprovalAction } from "./actions";
import { useRun } from "./use-run";

/** An administrator's choice per account: one person may prepare and approve. Turning it on asks first. */
export function SelfApprovalSetting({
  accountId,
  allowed,
  updatedBy,
  updatedAt,
}: {
  accountId: string;
  allowed: boolean;
  updatedBy: string | null;
  updatedAt: string | null;
}) {
  const t = useT();
  const { busy, run } = useRun();
  const [confirming, setConfirming] = useState(false);
  const save = (allow: boolean) =>
    run(
      "save",
      () => setSelfApprovalAction({ accountId, allow }),
      allow ? t("payouts.selfApproval.allowedToast") : t("payouts.selfApproval.forbiddenToast"),
    );

  return (
    <Card data-testid="self-approval-setting" data-allowed={allowed}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <UserCheck className="size-4 text-muted-foreground" aria-hidden />
          {t("payouts.selfApproval.title")}
          <Badge variant={allowed ? "warning" : "secondary"}>
            {allowed ? t("payouts.selfApproval.on") : t("payouts.selfApproval.off")}
          </Badge>
        </CardTitle>
        <CardDescription>{t("payouts.selfApproval.description")}</CardDescription>
        <CardAction>
          {allowed ? (
            <Button variant="outline" loading={busy === "save"} onClick={() => void save(false)}>
              {t("payouts.selfApproval.forbid")}
            </Button>
          ) : (
            <DeferredDialog
              open={confirming}
              onOpenChange={setConfirming}
              trigger={<Button variant="outline">{t("payouts.selfApproval.allow")}</Button>}
              title={t("payouts.selfApproval.confirmTitle")}
              className="sm:max-w-md"
            >
              <Alert variant="warning">
                <TriangleAlert />
                <AlertTitle className="line-clamp-none">{t("payouts.selfApproval.warningTitle")}</AlertTitle>
                <AlertDescription>{t("payouts.selfApproval.warning")}</AlertDescription>
              </Alert>
              <DialogFooter>
                <Button variant="outline" onClick={() => setConfirming(false)}>
                  {t("payouts.cancelAction")}
                </Button>
                <Button
                  loading={busy === "save"}
                  onClick={async () => {
                    await save(true);
                    setConfirming(false);
                  }}
                >
                  {t("payouts.selfApproval.confirm")}
                </Button>
              </DialogFooter>
            </DeferredDialog>
          )}
        </CardAction>
      </CardHeader>
      {allowed && (
        <CardContent>
          <Alert variant="warning">
            <TriangleAlert />
            <AlertDescription>
              {t("payouts.selfApproval.activeWarning")}
              {updatedBy && updatedAt ? ` ${t("payouts.selfApproval.changedBy", { email: updatedBy, at: updatedAt })}` : ""}
            </AlertDescription>
          </Alert>
        </CardContent>
      )}
    </Card>
  );
}
