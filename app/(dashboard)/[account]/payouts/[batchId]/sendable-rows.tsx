import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { fromCents } from "@/lib/br";
import { type PayoutRowView } from "@/lib/payout-batches/queries";
import { type I18n, Pager, paged, keyTypeWords } from "./parts";
import { hasError } from "./row-filters";

/** The rows a checker approves (or a rejected batch held): valid and not removed, read only. */
export function SendableRows({
  rows,
  page,
  base,
  i18n,
  title,
}: {
  rows: PayoutRowView[];
  page: number | undefined;
  base: string;
  i18n: I18n;
  title: string;
}) {
  const { t, format } = i18n;
  const sendable = rows.filter((row) => !row.removed && !hasError(row));
  const view = paged(sendable, page);
  return (
    <Card className="gap-4 pb-4">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{t("payouts.rows.count", { count: sendable.length })}</CardDescription>
      </CardHeader>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="w-14 pl-5">{t("payouts.rows.line")}</TableHead>
            <TableHead>{t("payouts.rows.receiver")}</TableHead>
            <TableHead className="hidden md:table-cell">{t("payouts.rows.key")}</TableHead>
            <TableHead className="pr-5 text-right md:pr-3">{t("payouts.rows.amount")}</TableHead>
            <TableHead className="hidden pr-5 md:table-cell">{t("payouts.rows.reference")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {view.items.map((row) => {
            const warnings = row.problems.length > 0 && (
              <span className="block text-xs whitespace-normal text-warning">
                {row.problems.map((problem) => t(`payouts.problems.${problem.code}`)).join(" · ")}
              </span>
            );
            return (
              <TableRow key={row.id} data-testid="payout-row" data-line={row.line}>
                <TableCell className="pl-5 align-top text-muted-foreground tabular-nums">{row.line}</TableCell>
                <TableCell className="max-w-[10.5rem] align-top sm:max-w-52">
                  <span className="block truncate font-medium">{row.ownerName}</span>
                  <span className="block truncate text-xs text-muted-foreground">{row.cells.document}</span>
                  <span className="mt-1 block truncate font-mono text-xs md:hidden">{row.pixKey}</span>
                  {row.reference && <span className="block truncate text-xs text-muted-foreground md:hidden">{row.reference}</span>}
                  <span className="md:hidden">{warnings}</span>
                </TableCell>
                <TableCell className="hidden max-w-60 align-top md:table-cell">
                  <span className="block truncate font-mono text-xs">{row.pixKey}</span>
                  <span className="block truncate text-xs text-muted-foreground">{keyTypeWords(t, row.pixKeyType)}</span>
                </TableCell>
                <TableCell className="pr-5 text-right align-top tabular-nums md:pr-3">
                  {row.amountCents !== null ? format.money(fromCents(row.amountCents)) : "—"}
                </TableCell>
                <TableCell className="hidden pr-5 align-top text-muted-foreground md:table-cell">
                  {row.reference || "—"}
                  {warnings}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Pager base={base} show="all" page={view.page} pages={view.pages} total={sendable.length} t={t} />
    </Card>
  );
}
