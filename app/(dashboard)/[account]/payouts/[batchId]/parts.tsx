import Link from "next/link";
import { Button } from "@/components/ui/button";
import type { AccountContext } from "@/lib/auth/account-page";
import { getI18n, hasMessage } from "@/lib/i18n/server";
import { codeText } from "@/lib/i18n/vocab";
import type { PayoutBatchWithProgress, PayoutRowView } from "@/lib/payout-batches/queries";
import { ROWS_PER_PAGE } from "../words";

export type I18n = Awaited<ReturnType<typeof getI18n>>;

/** What the page hands each of the batch's views (draft, approval, run). */
export type BatchViewProps = {
  ctx: AccountContext;
  batch: PayoutBatchWithProgress;
  rows: PayoutRowView[];
  /** The table's filter (?show=). */
  show: string;
  page: number | undefined;
  base: string;
  i18n: I18n;
};

/** Who did something to the batch and when, as the titles name them ("—" for what is not recorded). */
export const whoAndWhen = (email: string | null, at: Date | null, formatAt: (at: Date) => string) => ({
  email: email ?? "—",
  at: at ? formatAt(at) : "—",
});

export function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

export function Stat({
  label,
  value,
  tone,
  testId,
  wide,
}: {
  label: string;
  value: string;
  tone?: "destructive" | "warning" | "success";
  testId?: string;
  /** Two columns on a phone (an amount). */
  wide?: boolean;
}) {
  const color =
    tone === "destructive" ? "text-destructive" : tone === "warning" ? "text-warning" : tone === "success" ? "text-success" : "";
  return (
    <div className={`min-w-0 rounded-lg border bg-muted/30 px-3 py-2.5 ${wide ? "col-span-2 sm:col-span-1" : ""}`} data-testid={testId}>
      <dt className="truncate text-xs text-muted-foreground">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${color}`}>{value}</dd>
    </div>
  );
}

/** Chips that filter the table, each with its count: the count per state the preview shows. */
export function Filters({
  base,
  current,
  items,
  label,
}: {
  base: string;
  current: string;
  items: Array<{ key: string; label: string; count: number; tone?: "destructive" | "warning" }>;
  label: string;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-1.5">
      {items.map((item) => {
        const active = item.key === current;
        return (
          <Link
            key={item.key}
            // Not prefetched: while the batch sends, the page re-reads itself and each chip would render it again.
            prefetch={false}
            href={item.key === "all" ? base : `${base}?show=${item.key}`}
            aria-current={active ? "page" : undefined}
            data-testid={`filter-${item.key}`}
            className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-medium transition-colors ${
              active ? "border-primary bg-primary/10 text-primary" : "text-muted-foreground hover:bg-muted hover:text-foreground"
            }`}
          >
            {item.label}
            <span
              className={`tabular-nums ${item.count > 0 && item.tone === "destructive" ? "text-destructive" : item.count > 0 && item.tone === "warning" ? "text-warning" : ""}`}
            >
              {item.count}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}

export function Pager({
  base,
  show,
  page,
  pages,
  total,
  t,
}: {
  base: string;
  show: string;
  page: number;
  pages: number;
  total: number;
  t: I18n["t"];
}) {
  if (pages <= 1) return null;
  const href = (n: number) => {
    const query = new URLSearchParams();
    if (show !== "all") query.set("show", show);
    if (n > 1) query.set("page", String(n));
    return query.size ? `${base}?${query}` : base;
  };
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t px-5 pt-4 text-sm text-muted-foreground">
      <span>{t("payouts.rows.pageOf", { page, pages, total })}</span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Button variant="outline" size="sm" asChild>
            <Link href={href(page - 1)} prefetch={false}>
              {t("payouts.rows.previous")}
            </Link>
          </Button>
        ) : null}
        {page < pages ? (
          <Button variant="outline" size="sm" asChild>
            <Link href={href(page + 1)} prefetch={false}>
              {t("payouts.rows.next")}
            </Link>
          </Button>
        ) : null}
      </div>
    </div>
  );
}

export function paged<T>(items: T[], page: number | undefined) {
  const pages = Math.max(1, Math.ceil(items.length / ROWS_PER_PAGE));
  const current = Math.min(page ?? 1, pages);
  return { items: items.slice((current - 1) * ROWS_PER_PAGE, current * ROWS_PER_PAGE), page: current, pages };
}

export const keyTypeWords = (t: I18n["t"], type: string | null) =>
  type ? codeText(t, (key) => hasMessage("pt-BR", key), "pixKeyType", type) : null;
