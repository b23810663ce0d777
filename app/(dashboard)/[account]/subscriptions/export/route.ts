import { AccessDeniedError, authorize } from "@/lib/auth/session";
import { writeAudit } from "@/lib/audit/log";
import { rawSearchParams, routeId } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { subscriptionsCsv } from "@/lib/subscriptions/export";
import { listSubscriptions, settleSummaries } from "@/lib/subscriptions/queries";
import { subscriptionsQuery } from "@/lib/subscriptions/schemas";
import { subscriptionWords } from "../words";

export const dynamic = "force-dynamic";

/** GET /<account>/subscriptions/export?state=&method=&product=&q=: every subscription the list's filters select, as CSV. */
export async function GET(request: Request, { params }: { params: Promise<{ account: string }> }) {
  const accountId = routeId((await params).account);
  let ctx;
  try {
    ctx = await authorize("transactions.view", accountId ?? undefined);
  } catch (error) {
    if (error instanceof AccessDeniedError) return new Response(null, { status: error.reason === "unauthenticated" ? 401 : 403 });
    throw error;
  }
  if (!accountId || !ctx.accounts.some((a) => a.id === accountId)) return new Response(null, { status: 404 });
  const { filters, problems } = subscriptionsQuery(rawSearchParams(new URL(request.url)));
  if (problems.length > 0) return new Response("Parâmetro inválido", { status: 400 });
  const { t, format } = await getI18n();
  await settleSummaries(accountId);
  const views = await listSubscriptions(accountId, filters, { limit: Number.MAX_SAFE_INTEGER });
  await writeAudit({ actor: ctx.user, accountId, action: "subscriptions.export", details: { ...filters, rows: views.length }, ip: ctx.ip });
  return new Response(subscriptionsCsv(views, subscriptionWords(t, format)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="assinaturas.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
