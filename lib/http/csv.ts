import Papa from "papaparse";

const BOM = "\uFEFF";

/** Cells that Excel would run as a formula ("=…", "@…", "+cmd", "-2+3"); a plain number such as "+5511…" is left alone. */
const FORMULA_LIKE = /^(?:[=@\t\r]|[+-](?![\d\s().]*$))/;

/** A download as Excel pt-BR reads it: UTF-8 with BOM (accents right), `;`-separated, CRLF, formulas neutralised. */
export function spreadsheetCsv(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return BOM + Papa.unparse(rows as (string | number)[][], { delimiter: ";", newline: "\r\n", escapeFormulae: FORMULA_LIKE }) + "\r\n";
}
