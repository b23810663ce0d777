"use client";

import { useState } from "react";
import { FileUp, Send, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { useT } from "@/lib/i18n/client";
import { removeRowsWithErrorsAction, submitPayoutBatchAction } from "../actions";
import { UploadForm } from "../upload-form";
import { useRun } from "../use-run";

/** The draft's next steps: drop the bad rows, upload the file again, or hand the batch to a checker. */
export function DraftToolbar({
  accountId,
  batchId,
  withErrors,
  valid,
  maxBytes,
  pastePlaceholder,
}: {
  accountId: string;
  batchId: string;
  withErrors: number;
  valid: number;
  maxBytes: number;
  pastePlaceholder: string;
}) {
  const t = useT();
  const { busy, run } = useRun();
  const [uploading, setUploading] = useState(false);
  const blocked =
    withErrors > 0
      ? t("payouts.preview.submitBlockedErrors", { count: withErrors })
      : valid === 0
        ? t("payouts.preview.submitBlockedEmpty")
        : null;

  return (
    <div className="flex flex-col gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex flex-wrap gap-2">
        {withErrors > 0 && (
          <Button
            variant="outline"
            loading={busy === "remove"}
            data-testid="remove-error-rows"
            onClick={() =>
              void run(
                "remove",
                () => removeRowsWithErrorsAction({ accountId, batchId }),
                (data) => t("payouts.preview.removedRows", { count: data.removed }),
              )
            }
          >
            <Trash2 /> {t("payouts.preview.removeErrors", { count: withErrors })}
          </Button>
        )}
        <DeferredDialog
          open={uploading}
          onOpenChange={setUploading}
          trigger={
            <Button variant="outline">
              <FileUp /> {t("payouts.preview.uploadAgain")}
            </Button>
          }
          title={t("payouts.preview.uploadAgainTitle")}
          description={t("payouts.preview.uploadAgainDescription")}
          className="sm:max-w-xl"
        >
          <UploadForm
            accountId={accountId}
            batchId={batchId}
            maxBytes={maxBytes}
            pastePlaceholder={pastePlaceholder}
            onDone={() => setUploading(false)}
          />
        </DeferredDialog>
      </div>
      <div className="flex flex-col items-stretch gap-1 sm:items-end">
        <Button
          loading={busy === "submit"}
          disabled={blocked !== null}
          aria-describedby={blocked ? "submit-blocked" : undefined}
          onClick={() => void run("submit", () => submitPayoutBatchAction({ accountId, batchId }), t("payouts.preview.submitted"))}
        >
          <Send /> {t("payouts.preview.submit")}
        </Button>
        {blocked && (
          <p id="submit-blocked" className="text-[13px] text-muted-foreground" data-testid="submit-blocked">
            {blocked}
          </p>
        )}
      </div>
    </div>
  );
}
