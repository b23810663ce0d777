"use client";

import { useState } from "react";
import { OctagonX, Pause, Play, TriangleAlert } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { DialogFooter } from "@/components/ui/dialog-layout";
import type { PayoutBatchState } from "@/lib/db/tables/payout-batches";
import { useT } from "@/lib/i18n/client";
import { cancelPayoutBatchAction, pausePayoutBatchAction, resumePayoutBatchAction } from "../actions";
import { useRun } from "../use-run";

/** Pause, resume and cancel the rows not yet sent; cancelling asks first and says what it cannot undo. */
export function RunControls({
  accountId,
  batchId,
  state,
  remaining,
  mayStop,
  mayResume,
}: {
  accountId: string;
  batchId: string;
  state: PayoutBatchState;
  remaining: number;
  mayStop: boolean;
  mayResume: boolean;
}) {
  const t = useT();
  const { busy, run } = useRun();
  const [confirming, setConfirming] = useState(false);
  if (state !== "RUNNING" && state !== "PAUSED") return null;

  return (
    <>
      {state === "RUNNING" && mayStop && (
        <Button
          variant="outline"
          loading={busy === "pause"}
          data-testid="pause-batch"
          onClick={() => void run("pause", () => pausePayoutBatchAction({ accountId, batchId }), t("payouts.run.pausedToast"))}
        >
          <Pause /> {t("payouts.run.pause")}
        </Button>
      )}
      {state === "PAUSED" && mayResume && (
        <Button
          loading={busy === "resume"}
          data-testid="resume-batch"
          onClick={() => void run("resume", () => resumePayoutBatchAction({ accountId, batchId }), t("payouts.run.resumedToast"))}
        >
          <Play /> {t("payouts.run.resume")}
        </Button>
      )}
      {mayStop && (
        <DeferredDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={
            <Button variant="outline" className="text-destructive hover:text-destructive" data-testid="cancel-batch">
              <OctagonX /> {t("payouts.run.cancel")}
            </Button>
          }
          title={t("payouts.run.cancelTitle")}
          description={t("payouts.run.cancelDescription", { count: remaining })}
          className="sm:max-w-md"
        >
          <Alert variant="warning">
            <TriangleAlert />
            <AlertDescription>{t("payouts.run.cancelNotUndone")}</AlertDescription>
          </Alert>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              {t("payouts.run.keepRunning")}
            </Button>
            <Button
              variant="destructive"
              loading={busy === "cancel"}
              data-testid="confirm-cancel"
              onClick={async () => {
                await run(
                  "cancel",
                  () => cancelPayoutBatchAction({ accountId, batchId }),
                  (data) => t("payouts.run.canceledToast", { count: data.canceledRows }),
                );
                setConfirming(false);
              }}
            >
              {t("payouts.run.confirmCancel")}
            </Button>
          </DialogFooter>
        </DeferredDialog>
      )}
    </>
  );
}
