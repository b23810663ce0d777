import { processState } from "@/lib/runtime/state";
import type ExcelJS from "exceljs";
import { formatMoneyInput, fromCents } from "@/lib/br";
import { spreadsheetCsv } from "@/lib/http/csv";
import { PAYOUT_COLUMNS, PAYOUT_HEADERS, type PayoutCells } from "./columns";

const BRL_FORMAT = '"R$" #,##0.00';
const TEXT_FORMAT = "@";

/**
 * The template's example rows: a CPF key, an e-mail key, a phone key. Documents are the reference
 * test numbers (valid check digits, nobody's). Keys and documents are written with their usual
 * punctuation: Excel keeps them as text (a bare "52998224725" would become a number and a leading
 * "+" a formula).
 */
export const TEMPLATE_EXAMPLES: readonly PayoutCells[] = [
  {
    pixKey: "529.982.247-25",
    pixKeyType: "cpf",
    amount: "1.234,56",
    name: "João da Silva",
    document: "529.982.247-25",
    description: "Comissão de março",
    reference: "pagamento-0001",
  },
  {
    pixKey: "maria.souza@example.com",
    pixKeyType: "email",
    amount: "250,00",
    name: "Maria Conceição Souza",
    document: "123.456.789-09",
    description: "Reembolso de despesas",
    reference: "pagamento-0002",
  },
  {
    pixKey: "(11) 98765-4321",
    pixKeyType: "celular",
    amount: "89,90",
    name: "Padaria Pão Quente Ltda",
    document: "11.222.333/0001-81",
    description: "",
    reference: "pagamento-0003",
  },
];

/** exceljs is loaded when a workbook is first written, not with the routes that import this module. */
async function newWorkbook(): Promise<ExcelJS.Workbook> {
  const { default: Excel } = await import("exceljs");
  return new Excel.Workbook();
}

async function xlsxBytes(workbook: ExcelJS.Workbook): Promise<Uint8Array> {
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}

function sheetWith(workbook: ExcelJS.Workbook, name: string, headers: readonly string[]): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1 }] });
  const header = sheet.addRow([...headers]);
  header.font = { bold: true };
  return sheet;
}

/** The template as CSV: UTF-8 with BOM (Excel then shows accents right), `;`-separated, CRLF. */
export function templateCsv(): string {
  return spreadsheetCsv([PAYOUT_HEADERS, ...TEMPLATE_EXAMPLES.map((cells) => PAYOUT_COLUMNS.map((column) => cells[column.field]))]);
}

const templateCache = processState<{ xlsx?: Promise<Uint8Array> }>("payout-batch-template", () => ({}));

/**
 * The template as XLSX, built once per process: its content never changes, and building it loads
 * exceljs and zips a workbook (seconds on a busy small machine, each download). Kept in the
 * process's state because the server's bundles each have their own copy of this module: the warm-up
 * at start (lib/bootstrap.ts) then serves the first download too.
 */
export function templateXlsx(): Promise<Uint8Array> {
  const cache = templateCache();
  cache.xlsx ??= buildTemplateXlsx().catch((error: unknown) => {
    delete cache.xlsx;
    throw error;
  });
  return cache.xlsx;
}

/** The template as XLSX: bold header, amounts as numbers formatted `"R$" #,##0.00`, key and document columns as text. */
async function buildTemplateXlsx(): Promise<Uint8Array> {
  const workbook = await newWorkbook();
  const sheet = sheetWith(workbook, "Transferências", PAYOUT_HEADERS);
  const widths: Record<string, number> = { pixKey: 30, pixKeyType: 12, amount: 14, name: 30, document: 22, description: 36, reference: 20 };
  PAYOUT_COLUMNS.forEach((column, index) => {
    const sheetColumn = sheet.getColumn(index + 1);
    sheetColumn.width = widths[column.field];
    if (column.field === "amount") sheetColumn.numFmt = BRL_FORMAT;
    if (column.field === "document" || column.field === "pixKey") sheetColumn.numFmt = TEXT_FORMAT;
  });
  for (const cells of TEMPLATE_EXAMPLES) {
    sheet.addRow(
      PAYOUT_COLUMNS.map((column) => {
        if (column.field !== "amount") return cells[column.field];
        return Number(cells.amount.replace(/\./g, "").replace(",", "."));
      }),
    );
  }
  // The header's cells keep the bold font and not the column's number format.
  sheet.getRow(1).eachCell((cell) => {
    cell.numFmt = "General";
  });
  return xlsxBytes(workbook);
}

/** One row of a batch's outcome, for the downloadable report. */
export type ResultRow = {
  line: number;
  reference: string | null;
  pixKey: string;
  name: string;
  amountCents: number;
  /** Already in words (the caller translates). */
  status: string;
  withdrawId: string | null;
  feeCents: number | null;
  error: string | null;
};

export const RESULT_HEADERS = ["linha", "identificador", "chave_pix", "nome", "valor", "status", "id_saque", "taxa", "erro"] as const;

/** pt-BR amount without thousands separators ("1234,56"), what Excel pt-BR reads back as a number. */
function csvAmount(cents: number): string {
  return formatMoneyInput(fromCents(cents)).replace(/\./g, "");
}

/** The batch's outcome as CSV (UTF-8 with BOM, `;`, CRLF); amounts written "1234,56". */
export function resultsCsv(rows: readonly ResultRow[]): string {
  return spreadsheetCsv([
    RESULT_HEADERS,
    ...rows.map((row) => [
      String(row.line),
      row.reference ?? "",
      row.pixKey,
      row.name,
      csvAmount(row.amountCents),
      row.status,
      row.withdrawId ?? "",
      row.feeCents === null ? "" : csvAmount(row.feeCents),
      row.error ?? "",
    ]),
  ]);
}

/** The batch's outcome as XLSX: amounts and fees as numbers formatted `"R$" #,##0.00`. */
export async function resultsXlsx(rows: readonly ResultRow[]): Promise<Uint8Array> {
  const workbook = await newWorkbook();
  const sheet = sheetWith(workbook, "Resultado", RESULT_HEADERS);
  const widths = [8, 20, 30, 30, 14, 18, 38, 12, 40];
  widths.forEach((width, index) => {
    sheet.getColumn(index + 1).width = width;
  });
  for (const row of rows) {
    const added = sheet.addRow([
      row.line,
      row.reference ?? "",
      row.pixKey,
      row.name,
      fromCents(row.amountCents),
      row.status,
      row.withdrawId ?? "",
      row.feeCents === null ? null : fromCents(row.feeCents),
      row.error ?? "",
    ]);
    added.getCell(5).numFmt = BRL_FORMAT;
    added.getCell(8).numFmt = BRL_FORMAT;
  }
  return xlsxBytes(workbook);
}
