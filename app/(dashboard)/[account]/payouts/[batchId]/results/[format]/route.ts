import { writeAudit } from "@/lib/audit/log";
import { AccessDeniedError, authorize } from "@/lib/auth/session";
import { stripAccents } from "@/lib/br";
import { routeId } from "@/lib/http/search-params";
import { getI18n, getStatusLabel, hasMessage } from "@/lib/i18n/server";
import { findPayoutBatch, listPayoutRows } from "@/lib/payout-batches/queries";
import { resultsCsv, resultsXlsx, type ResultRow } from "@/lib/payout-batches/template";
import { rowErrorWords, rowStatusWords } from "../../../results";

export const dynamic = "force-dynamic";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A file name anyone's system takes: the batch's name without accents or punctuation. */
function fileNameOf(name: string, format: string): string {
  const slug = stripAccents(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `resultado-${slug || "lote"}.${format}`;
}

/**
 * GET /<account>/payouts/<batch>/results/(csv|xlsx): every row of the batch (removed ones aside)
 * with its status and error in words, the gateway's withdraw id and fee. Audited like an export.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ account: string; batchId: string; format: string }> }) {
  const { account, batchId, format } = await params;
  const accountId = routeId(account);
  let ctx;
  try {
    ctx = await authorize("payouts.view", accountId ?? undefined);
  } catch (error) {
    if (error instanceof AccessDeniedError) return new Response(null, { status: error.reason === "unauthenticated" ? 401 : 403 });
    throw error;
  }
  if (!accountId || !ctx.accounts.some((a) => a.id === accountId)) return new Response(null, { status: 404 });
  const id = routeId(batchId);
  if (!id || (format !== "csv" && format !== "xlsx")) return new Response(null, { status: 404 });
  const batch = await findPayoutBatch(accountId, id);
  if (!batch) return new Response(null, { status: 404 });

  const { t, locale } = await getI18n();
  const statusLabel = await getStatusLabel();
  const has = (key: string) => hasMessage(locale, key);
  const rows: ResultRow[] = (await listPayoutRows(batch.id))
    .filter((row) => !row.removed)
    .map((row) => ({
      line: row.line,
      reference: row.reference ?? (row.cells.reference || null),
      pixKey: row.pixKey ?? row.cells.pixKey,
      name: row.ownerName ?? row.cells.name,
      amountCents: row.amountCents ?? 0,
      status: rowStatusWords(row, t, statusLabel),
      withdrawId: row.withdrawId,
      feeCents: row.feeCents,
      error: rowErrorWords(row, t, statusLabel, has) || null,
    }));
  await writeAudit({
    actor: ctx.user,
    accountId,
    action: "payout_batch.results_exported",
    target: batch.id,
    details: { format, rows: rows.length },
    ip: ctx.ip,
  });
  const body = format === "csv" ? resultsCsv(rows) : await resultsXlsx(rows);
  return new Response(typeof body === "string" ? body : new Uint8Array(body), {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : XLSX_TYPE,
      "content-disposition": `attachment; filename="${fileNameOf(batch.name, format)}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-total-count": String(rows.length),
    },
  });
}
