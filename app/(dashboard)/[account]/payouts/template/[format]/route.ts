import { AccessDeniedError, authorize } from "@/lib/auth/session";
import { routeId } from "@/lib/http/search-params";
import { templateCsv, templateXlsx } from "@/lib/payout-batches/template";

export const dynamic = "force-dynamic";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** GET /<account>/payouts/template/(csv|xlsx): the batch file's template, with its example rows. */
export async function GET(_request: Request, { params }: { params: Promise<{ account: string; format: string }> }) {
  const { account, format } = await params;
  // The account is the one the address names, never a cookie's.
  const accountId = routeId(account);
  let ctx;
  try {
    ctx = await authorize("payouts.view", accountId ?? undefined);
  } catch (error) {
    if (error instanceof AccessDeniedError) return new Response(null, { status: error.reason === "unauthenticated" ? 401 : 403 });
    throw error;
  }
  if (!accountId || !ctx.accounts.some((a) => a.id === accountId)) return new Response(null, { status: 404 });
  if (format !== "csv" && format !== "xlsx") return new Response(null, { status: 404 });
  const body = format === "csv" ? templateCsv() : await templateXlsx();
  return new Response(typeof body === "string" ? body : new Uint8Array(body), {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : XLSX_TYPE,
      "content-disposition": `attachment; filename="modelo-lote-pix.${format}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
