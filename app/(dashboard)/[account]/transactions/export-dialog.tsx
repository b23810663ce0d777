"use client";

import { useEffect, useRef, useState } from "react";
import { Download, FileSpreadsheet } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { DialogFooter } from "@/components/ui/dialog-layout";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { useI18n } from "@/lib/i18n/client";
import type { LedgerFilterParams } from "@/lib/ledger/filter-keys";
import { countTransactionsAction } from "./actions";

type State =
  | { phase: "idle" }
  | { phase: "running"; done: number; total: number }
  | { phase: "done"; rows: number; url: string; fileName: string }
  | { phase: "failed" };

const CR = 13;
const LF = 10;

function fileNameOf(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "transacoes.csv";
}

/** Streams the CSV from the route handler, counting rows as they arrive against the count taken before the first byte. */
export function ExportDialog({ accountId, filters }: { accountId: string; filters: LedgerFilterParams }) {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState(false);
  const [count, setCount] = useState<number | null>(null);
  const [state, setState] = useState<State>({ phase: "idle" });
  const abortRef = useRef<AbortController | null>(null);
  const number = new Intl.NumberFormat(locale);
  const downloadUrl = state.phase === "done" ? state.url : null;

  useEffect(
    () => () => {
      if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    },
    [downloadUrl],
  );

  async function onOpenChange(next: boolean) {
    if (!next) abortRef.current?.abort();
    setOpen(next);
    if (next) {
      setState({ phase: "idle" });
      setCount(null);
      const result = await countTransactionsAction({ ...filters, accountId });
      if (result.ok) setCount(result.data);
    }
  }

  async function start() {
    const controller = new AbortController();
    abortRef.current = controller;
    setState({ phase: "running", done: 0, total: count ?? 0 });
    try {
      const response = await fetch(
        `/api/transactions/export?${new URLSearchParams({ ...(filters as Record<string, string>), account: accountId })}`,
        { signal: controller.signal },
      );
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      const total = Number(response.headers.get("x-total-count") ?? count ?? 0);
      const reader = response.body.getReader();
      const parts: Uint8Array<ArrayBuffer>[] = [];
      let lines = 0;
      let previous = 0;
      let lastPaint = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value as Uint8Array<ArrayBuffer>);
        // Rows end with CRLF; a bare LF can only be inside a quoted cell.
        for (let i = 0; i < value.length; i++) {
          if (value[i] === LF && previous === CR) lines++;
          previous = value[i]!;
        }
        const now = performance.now();
        if (now - lastPaint > 100) {
          lastPaint = now;
          setState({ phase: "running", done: Math.max(0, lines - 1), total });
        }
      }
      const rows = Math.max(0, lines - 1);
      const url = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
      const fileName = fileNameOf(response.headers.get("content-disposition"));
      setState({ phase: "done", rows, url, fileName });
      triggerDownload(url, fileName);
      toast.success(t("transactions.export.done", { count: number.format(rows) }));
    } catch (error) {
      if (controller.signal.aborted) {
        setState({ phase: "idle" });
        toast(t("transactions.export.cancelled"));
      } else {
        console.error(error);
        setState({ phase: "failed" });
      }
    } finally {
      abortRef.current = null;
    }
  }

  const percent =
    state.phase === "running" && state.total > 0
      ? Math.min(100, Math.round((state.done / state.total) * 100))
      : state.phase === "done"
        ? 100
        : 0;

  return (
    <DeferredDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button variant="outline" size="sm">
          <FileSpreadsheet aria-hidden />
          {t("transactions.export.button")}
        </Button>
      }
      title={t("transactions.export.title")}
      description={t("transactions.export.description", { count: count === null ? "…" : number.format(count) })}
    >
      {(state.phase === "running" || state.phase === "done") && (
        <div className="space-y-2">
          <div
            role="progressbar"
            aria-label={t("transactions.export.title")}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary transition-[width] duration-150" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-sm text-muted-foreground tabular-nums" data-testid="export-progress">
            {state.phase === "running"
              ? t("transactions.export.progress", { done: number.format(state.done), total: number.format(state.total) })
              : t("transactions.export.done", { count: number.format(state.rows) })}
          </p>
        </div>
      )}
      {state.phase === "failed" && (
        <Alert variant="destructive">
          <AlertDescription>{t("transactions.export.failed")}</AlertDescription>
        </Alert>
      )}
      <DialogFooter>
        {state.phase === "running" ? (
          <Button variant="outline" onClick={() => abortRef.current?.abort()}>
            {t("transactions.export.cancel")}
          </Button>
        ) : state.phase === "done" ? (
          <Button variant="outline" onClick={() => triggerDownload(state.url, state.fileName)}>
            <Download aria-hidden />
            {t("transactions.export.download")}
          </Button>
        ) : (
          <Button onClick={start} disabled={count === null}>
            <Download aria-hidden />
            {t("transactions.export.start")}
          </Button>
        )}
      </DialogFooter>
    </DeferredDialog>
  );
}

function triggerDownload(url: string, fileName: string) {
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}
