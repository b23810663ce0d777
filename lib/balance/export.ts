import "server-only";
import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import type { MovementKind } from "@/lib/db/schema";
import { TIME_ZONE } from "@/lib/locale";
import { baselineAt, periodStart, sumMovements, type Amounts, type StatementFilters } from "./queries";

/**
 * The extrato as a file: every movement of the period, oldest first, with the running balance
 * (anchored like the page: the last balance entered before the period, carried forward). CSV as
 * the console's other exports (UTF-8 with BOM, `;`, CRLF, decimal comma); XLSX with numbers as
 * numbers. Kinds are written as words (the producer's language) and as their code.
 */
export const STATEMENT_CSV_HEADER = [
  "data",
  "data_utc",
  "tipo",
  "tipo_codigo",
  "referencia",
  "transacao_id",
  "transferencia_id",
  "valor",
  "disponivel",
  "a_liberar",
  "saldo_disponivel",
  "saldo_a_liberar",
] as const;

export type KindWords = Record<MovementKind, string>;

type Row = {
  id: string;
  kind: MovementKind;
  /** ISO 8601 in UTC, made by the database (parsing a timestamp into a Date per row cost a third of the export). */
  utc: string;
  local: string;
  reference: string | null;
  ledger_id: string | null;
  transfer_id: string | null;
  available_cents: string;
  pending_cents: string;
};

const zone = sql.raw(`'${TIME_ZONE}'`);

async function* statementRows(
  accountId: string,
  filters: StatementFilters,
  now: Date,
  batchSize: number,
  signal?: AbortSignal,
): AsyncGenerator<{ rows: Row[]; opening: Amounts }> {
  const db = await getDb();
  const startAt = await periodStart(db, filters.period.from);
  const anchor = await baselineAt(db, accountId, startAt);
  const before = await sumMovements(db, accountId, anchor.readAt, { at: startAt, id: "" });
  const opening = {
    availableCents: anchor.availableCents + before.availableCents,
    pendingCents: anchor.pendingCents + before.pendingCents,
  };
  const kinds =
    filters.kinds && filters.kinds.length > 0
      ? sql`and m.kind in (${sql.join(
          filters.kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`
      : sql``;
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    if (signal?.aborted) return;
    const after: ReturnType<typeof sql> = cursor ? sql`and (m.occurred_at, m.id) > (${cursor.at}::timestamptz, ${cursor.id})` : sql``;
    const result = await db.execute<Row & { cursor_at: string }>(sql`
      select m.id, m.kind, to_char(m.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as utc,
        to_char(m.occurred_at at time zone ${zone}, 'DD/MM/YYYY HH24:MI:SS') as local,
        m.reference, m.ledger_id, m.transfer_id, m.available_cents::text, m.pending_cents::text, m.occurred_at::text as cursor_at
      from ledger_movements m
      where m.account_id = ${accountId}
        and m.occurred_at >= (${filters.period.from}::date::timestamp at time zone ${zone})
        and m.occurred_at < ((${filters.period.to}::date + 1)::timestamp at time zone ${zone})
        and m.occurred_at <= ${now.toISOString()}::timestamptz ${kinds} ${after}
      order by m.occurred_at, m.id limit ${batchSize}`);
    const rows = result.rows;
    if (rows.length === 0) return;
    yield { rows, opening };
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    cursor = { at: last.cursor_at, id: last.id };
  }
}

/** Centavos → `1234,56`. */
function money(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
}

const text = (value: string | null) => (value === null ? "" : `"${value.replace(/"/g, '""')}"`);

/** Every movement of the period as CSV chunks (one per batch); the running balance continues across batches. */
export async function* statementCsvChunks(
  accountId: string,
  filters: StatementFilters,
  words: KindWords,
  options: { batchSize?: number; signal?: AbortSignal; now?: Date } = {},
): AsyncGenerator<string> {
  yield `\uFEFF${STATEMENT_CSV_HEADER.join(";")}\r\n`;
  let running: Amounts | null = null;
  for await (const { rows, opening } of statementRows(
    accountId,
    filters,
    options.now ?? new Date(),
    options.batchSize ?? 5000,
    options.signal,
  )) {
    running ??= { ...opening };
    let chunk = "";
    for (const row of rows) {
      const available = Number(row.available_cents);
      const pending = Number(row.pending_cents);
      running.availableCents += available;
      running.pendingCents += pending;
      chunk += `${row.local};${row.utc};${text(words[row.kind] ?? row.kind)};${row.kind};${text(row.reference)};${text(row.ledger_id)};${text(row.transfer_id)};${money(available + pending)};${money(available)};${money(pending)};${money(running.availableCents)};${money(running.pendingCents)}\r\n`;
    }
    yield chunk;
  }
}

function toStream(chunks: AsyncGenerator<string>, controller: AbortController): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(stream) {
      const next = await chunks.next();
      if (next.done) stream.close();
      else stream.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      controller.abort();
      await chunks.return(undefined);
    },
  });
}

export function statementCsvStream(accountId: string, filters: StatementFilters, words: KindWords): ReadableStream<Uint8Array> {
  const controller = new AbortController();
  return toStream(statementCsvChunks(accountId, filters, words, { signal: controller.signal }), controller);
}

/** The same lines as an XLSX workbook, written as it streams (exceljs' streaming writer keeps memory flat). */
export function statementXlsxStream(
  accountId: string,
  filters: StatementFilters,
  words: KindWords,
  headers: Record<(typeof STATEMENT_CSV_HEADER)[number], string>,
): ReadableStream<Uint8Array> {
  const controller = new AbortController();
  const pass = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: pass, useStyles: true });
  const sheet = workbook.addWorksheet("Extrato");
  sheet.columns = STATEMENT_CSV_HEADER.map((key) => ({
    header: headers[key],
    key,
    width: key.startsWith("data") ? 20 : key.endsWith("_id") || key === "referencia" ? 38 : 16,
    style: ["valor", "disponivel", "a_liberar", "saldo_disponivel", "saldo_a_liberar"].includes(key) ? { numFmt: "#,##0.00" } : {},
  }));
  void (async () => {
    try {
      let running: Amounts | null = null;
      for await (const { rows, opening } of statementRows(accountId, filters, new Date(), 5000, controller.signal)) {
        running ??= { ...opening };
        for (const row of rows) {
          const available = Number(row.available_cents);
          const pending = Number(row.pending_cents);
          running.availableCents += available;
          running.pendingCents += pending;
          sheet
            .addRow({
              data: row.local,
              data_utc: row.utc,
              tipo: words[row.kind] ?? row.kind,
              tipo_codigo: row.kind,
              referencia: row.reference ?? "",
              transacao_id: row.ledger_id ?? "",
              transferencia_id: row.transfer_id ?? "",
              valor: (available + pending) / 100,
              disponivel: available / 100,
              a_liberar: pending / 100,
              saldo_disponivel: running.availableCents / 100,
              saldo_a_liberar: running.pendingCents / 100,
            })
            .commit();
        }
      }
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      pass.destroy(error as Error);
    }
  })();
  // A download the browser gave up stops the queries between batches.
  pass.on("close", () => controller.abort());
  return Readable.toWeb(pass) as unknown as ReadableStream<Uint8Array>;
}
