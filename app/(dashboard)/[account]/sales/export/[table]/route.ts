import { AccessDeniedError, authorize } from "@/lib/auth/session";
import { spreadsheetCsv } from "@/lib/http/csv";
import { rawSearchParams, routeId } from "@/lib/http/search-params";
import { getI18n, hasMessage } from "@/lib/i18n/server";
import { salesByOrigin, salesOverview } from "@/lib/sales/queries";
import { salesQuery } from "../../query";
import { dailyTable, EXPORT_TABLES, methodsTable, originTable, type ExportTable, type ExportTableName } from "../../tables";

export const dynamic = "force-dynamic";

/**
 * GET /<account>/sales/export/(daily|methods|origin)?period=…|from=…&to=…[&dimension=…]: the table the
 * page shows for that period, as CSV (UTF-8 with BOM, `;`), with the period in the file name.
 */
export async function GET(request: Request, { params }: { params: Promise<{ account: string; table: string }> }) {
  const { account, table } = await params;
  const accountId = routeId(account);
  let ctx;
  try {
    ctx = await authorize("sales.view", accountId ?? undefined);
  } catch (error) {
    if (error instanceof AccessDeniedError) return new Response(null, { status: error.reason === "unauthenticated" ? 401 : 403 });
    throw error;
  }
  if (!accountId || !ctx.accounts.some((a) => a.id === accountId)) return new Response(null, { status: 404 });
  if (!(EXPORT_TABLES as readonly string[]).includes(table)) return new Response(null, { status: 404 });
  const name = table as ExportTableName;
  const query = salesQuery(rawSearchParams(new URL(request.url)));
  if (query.problems.length > 0 || query.periodRefused) return new Response("Período ou parâmetro inválido", { status: 400 });
  const { t, locale } = await getI18n();
  const has = (key: string) => hasMessage(locale, key);
  let rows: ExportTable;
  if (name === "origin") {
    rows = originTable(await salesByOrigin(accountId, query.period, { dimension: query.dimension }), query.dimension, t);
  } else {
    const overview = await salesOverview(accountId, { from: query.period.from, to: query.period.to });
    rows = name === "daily" ? dailyTable(overview, t) : methodsTable(overview.current.byCurrency, t, has);
  }
  const suffix = name === "origin" ? `-${query.dimension}` : "";
  return new Response(spreadsheetCsv([rows.headers, ...rows.rows]), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="vendas-${name}${suffix}-${query.period.from}-a-${query.period.to}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
