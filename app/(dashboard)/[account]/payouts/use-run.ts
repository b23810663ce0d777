"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { toast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/actions/safe-action";
import { answerOf, isNoAnswer } from "@/lib/actions/answer";
import { useT } from "@/lib/i18n/client";

/**
 * One button, one action: the button shows progress while it runs, a refusal is a toast in words
 * (its detail below); on success the page shows the server data the action revalidated. Returns the data, or null.
 */
export function useRun() {
  const t = useT();
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);

  async function run<R>(key: string, call: () => Promise<ActionResult<R>>, success?: string | ((data: R) => string)): Promise<R | null> {
    setBusy(key);
    try {
      const result = await answerOf(call);
      if (isNoAnswer(result)) {
        toast.warning(t("errors.noAnswer.title"), { description: t("errors.noAnswer.body") });
        router.refresh();
        return null;
      }
      if (!result.ok) {
        toast.error(t(result.error), result.message ? { description: result.message } : undefined);
        // Someone else moved the batch on (approved, paused, cancelled): show where it is now.
        if (result.error === "payouts.refusals.wrongState") router.refresh();
        return null;
      }
      // The action revalidated the page: its answer carries the new server data, no second read needed.
      if (success) toast.success(typeof success === "string" ? success : success(result.data));
      return result.data;
    } finally {
      setBusy(null);
    }
  }

  return { busy, run };
}
