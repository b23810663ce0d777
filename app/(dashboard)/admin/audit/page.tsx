import Link from "next/link";
import { CodeWord } from "@/components/ui/code-word";
import { ScrollText } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listAccounts } from "@/lib/accounts/queries";
import { requirePage } from "@/lib/auth/session";
import type { RawSearchParams } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { listAuditEntries, parseAuditParams } from "@/lib/audit/queries";
import { ParamsProblems } from "@/components/params-problems";
import { AuditFilters } from "./audit-filters";

export default async function AuditPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  await requirePage("audit.view");
  const { t, format } = await getI18n();
  const accounts = await listAccounts();
  const { filters, cursor, problems } = parseAuditParams(
    await searchParams,
    accounts.map((a) => a.id),
  );
  const page = await listAuditEntries(filters, { cursor });
  const initial = { email: filters.email, account: filters.accountId, action: filters.action, from: filters.from, to: filters.to };
  const params = Object.fromEntries(Object.entries(initial).filter(([, v]) => v)) as Record<string, string>;
  const nextHref = page.nextCursor ? `/admin/audit?${new URLSearchParams({ ...params, cursor: page.nextCursor })}` : null;

  return (
    <div className="space-y-5">
      <PageHeader title={t("audit.title")} description={t("audit.description")} />
      <ParamsProblems problems={problems} />
      <AuditFilters
        key={new URLSearchParams(params).toString()}
        initial={initial}
        accounts={accounts.map(({ id, name }) => ({ id, name }))}
      />
      {page.rows.length === 0 ? (
        <EmptyState icon={<ScrollText />} title={t("audit.empty")} />
      ) : (
        <>
          <Card className="gap-0 py-0 sm:hidden">
            <ul className="divide-y" data-testid="audit-list-mobile">
              {page.rows.map((row) => (
                <li key={row.id} className="space-y-1 px-4 py-3 text-sm" data-testid="audit-item">
                  <CodeWord group="audit" code={row.action} className="block font-medium" />
                  <p className="text-xs text-muted-foreground tabular-nums">
                    {format.dateTime(row.at)} · {row.userEmail ?? t("audit.system")}
                    {row.accountName ? ` · ${row.accountName}` : ""}
                  </p>
                  {row.target && (
                    <p className="truncate font-mono text-xs text-muted-foreground" data-raw={row.target} title={row.target}>
                      {row.target}
                    </p>
                  )}
                  {row.details && Object.keys(row.details).length > 0 && (
                    <AuditDetails details={row.details} label={t("audit.showDetails")} />
                  )}
                </li>
              ))}
            </ul>
          </Card>
          <Card className="hidden gap-0 py-0 sm:flex">
            <Table data-testid="audit-table">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("audit.columns.at")}</TableHead>
                  <TableHead>{t("audit.columns.user")}</TableHead>
                  <TableHead>{t("audit.columns.action")}</TableHead>
                  <TableHead>{t("audit.columns.account")}</TableHead>
                  <TableHead>{t("audit.columns.target")}</TableHead>
                  <TableHead>{t("audit.columns.ip")}</TableHead>
                  <TableHead>{t("audit.columns.details")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {page.rows.map((row) => (
                  <TableRow key={row.id} data-testid="audit-row" className="[&>td]:align-top">
                    <TableCell className="text-muted-foreground tabular-nums">{format.dateTime(row.at)}</TableCell>
                    <TableCell>{row.userEmail ?? <span className="text-muted-foreground italic">{t("audit.system")}</span>}</TableCell>
                    <TableCell className="min-w-48 whitespace-normal">
                      <CodeWord group="audit" code={row.action} />
                    </TableCell>
                    <TableCell className="max-w-40 truncate">
                      {row.accountName ??
                        (row.accountId ? <span className="font-mono text-xs">{row.accountId}</span> : t("audit.noAccount"))}
                    </TableCell>
                    <TableCell
                      className="max-w-48 truncate font-mono text-xs"
                      title={row.target ?? undefined}
                      data-raw={row.target ?? undefined}
                    >
                      {row.target ?? "—"}
                    </TableCell>
                    <TableCell className="font-mono text-xs text-muted-foreground">{row.ip ?? "—"}</TableCell>
                    <TableCell className="max-w-md whitespace-normal">
                      {row.details && Object.keys(row.details).length > 0 ? (
                        <AuditDetails details={row.details} label={t("audit.showDetails")} />
                      ) : (
                        "—"
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Card>
        </>
      )}
      <div className="flex justify-end gap-2">
        {cursor && (
          <Button asChild variant="outline" size="sm">
            <Link href={`/admin/audit${Object.keys(params).length ? `?${new URLSearchParams(params)}` : ""}`}>{t("audit.firstPage")}</Link>
          </Button>
        )}
        {nextHref && (
          <Button asChild variant="outline" size="sm">
            <Link href={nextHref}>{t("audit.nextPage")}</Link>
          </Button>
        )}
      </div>
    </div>
  );
}

/** An entry's details as JSON, closed until asked for. */
function AuditDetails({ details, label }: { details: Record<string, unknown>; label: string }) {
  return (
    <details>
      <summary className="cursor-pointer text-xs text-primary select-none">{label}</summary>
      <pre className="mt-1 max-h-64 overflow-auto rounded-md bg-muted/40 p-2 font-mono text-[11px] leading-4">
        {JSON.stringify(details, null, 2)}
      </pre>
    </details>
  );
}
