import { AccessDeniedError, authorize } from "@/lib/auth/session";
import { writeAudit } from "@/lib/audit/log";
import { parseLedgerParams } from "@/lib/ledger/filters";
import { countLedger } from "@/lib/ledger/queries";
import { exportFileName, ledgerCsvStream } from "@/lib/ledger/export";
import { badRequest, searchParamsProblem } from "@/lib/http/input";
import { rawSearchParams } from "@/lib/http/search-params";

export const dynamic = "force-dynamic";

/**
 * GET /api/transactions/export?account=<id>&<list filters>: every matching row of that account as CSV,
 * streamed batch by batch. `X-Total-Count` (counted before the first byte) lets the page show
 * progress; the file is the one documented in lib/ledger/export.ts.
 */
export async function GET(request: Request) {
  const url = new URL(request.url);
  // The account is named by the page that asks (its URL's account), never taken from a cookie.
  const accountId = url.searchParams.get("account");
  let ctx;
  try {
    ctx = await authorize("transactions.view", accountId ?? undefined);
  } catch (error) {
    if (error instanceof AccessDeniedError) return new Response(null, { status: error.reason === "unauthenticated" ? 401 : 403 });
    throw error;
  }
  const account = accountId ? ctx.accounts.find((a) => a.id === accountId) : undefined;
  if (!account) return new Response(null, { status: 404 });
  const problem = searchParamsProblem(request.url);
  if (problem) return badRequest(problem);
  // Read as the transactions page reads them: a repeated or invalid filter is dropped there, so here
  // too, and the audit names the filters applied (not those dropped).
  const { filters, params } = parseLedgerParams(rawSearchParams(url));
  const total = await countLedger(account.id, filters);
  await writeAudit({
    actor: ctx.user,
    accountId: account.id,
    action: "transactions.export",
    details: { filters: params, rows: total },
    ip: ctx.ip,
  });
  const name = exportFileName();
  return new Response(ledgerCsvStream(account.id, filters), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
      "x-total-count": String(total),
      "x-content-type-options": "nosniff",
    },
  });
}
