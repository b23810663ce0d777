import { AccessDeniedError, authorize } from "@/lib/auth/session";
import { writeAudit } from "@/lib/audit/log";
import { STATEMENT_CSV_HEADER, statementCsvStream, statementXlsxStream, type KindWords } from "@/lib/balance/export";
import { balanceQuery } from "@/lib/balance/view";
import { MOVEMENT_KINDS } from "@/lib/db/schema";
import { rawSearchParams, routeId } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

const FORMATS = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

/**
 * GET /<account>/balance/export/(csv|xlsx)?from=…&to=…[&kind=…]: every movement of the period, with
 * the page's filters, streamed (lib/balance/export.ts), kinds in the user's words.
 */
export async function GET(request: Request, { params }: { params: Promise<{ account: string; format: string }> }) {
  const { account, format } = await params;
  const accountId = routeId(account);
  let ctx;
  try {
    ctx = await authorize("balance.view", accountId ?? undefined);
  } catch (error) {
    if (error instanceof AccessDeniedError) return new Response(null, { status: error.reason === "unauthenticated" ? 401 : 403 });
    throw error;
  }
  if (!accountId || !ctx.accounts.some((a) => a.id === accountId)) return new Response(null, { status: 404 });
  if (!Object.hasOwn(FORMATS, format)) return new Response(null, { status: 404 });
  const kind = format as keyof typeof FORMATS;
  const query = balanceQuery(rawSearchParams(new URL(request.url)));
  if (query.problems.length > 0 || query.periodRefused) return new Response("Período ou parâmetro inválido", { status: 400 });
  const { t } = await getI18n();
  const words = Object.fromEntries(MOVEMENT_KINDS.map((k) => [k, t(`balance.kinds.${k}`)])) as KindWords;
  const filters = { period: query.period, kinds: query.kinds };
  await writeAudit({
    actor: ctx.user,
    accountId,
    action: "balance.export",
    details: { format: kind, from: query.period.from, to: query.period.to, kinds: query.kinds },
    ip: ctx.ip,
  });
  const body =
    kind === "csv"
      ? statementCsvStream(accountId, filters, words)
      : statementXlsxStream(
          accountId,
          filters,
          words,
          Object.fromEntries(STATEMENT_CSV_HEADER.map((key) => [key, t(`balance.export.headers.${key}`)])) as Record<
            (typeof STATEMENT_CSV_HEADER)[number],
            string
          >,
        );
  return new Response(body, {
    headers: {
      "content-type": FORMATS[kind],
      "content-disposition": `attachment; filename="extrato_${query.period.from}_${query.period.to}.${kind}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
