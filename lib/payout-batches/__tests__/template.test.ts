import ExcelJS from "exceljs";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { payouts } from "@/lib/i18n/messages/payouts";
import { PAYOUT_HEADERS } from "@/lib/payout-batches/columns";
import { readPayoutFile } from "@/lib/payout-batches/parse";
import {
  RESULT_HEADERS,
  TEMPLATE_EXAMPLES,
  resultsCsv,
  resultsXlsx,
  templateCsv,
  templateXlsx,
  type ResultRow,
} from "@/lib/payout-batches/template";
import { FILE_PROBLEM_CODES, ROW_PROBLEM_CODES, validatePayoutRows } from "@/lib/payout-batches/validate";

async function sheetOf(bytes: Uint8Array): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as Parameters<ExcelJS.Xlsx["load"]>[0]);
  return workbook.worksheets[0];
}

describe("the template", () => {
  it("is a UTF-8 CSV with BOM, semicolons and CRLF, whose example rows are valid: a CPF, an e-mail and a phone key", async () => {
    const csv = templateCsv();
    expect(csv.startsWith("\uFEFFchave_pix;tipo_chave;valor;nome;documento;descricao;identificador\r\n")).toBe(true);
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(4);
    const read = await readPayoutFile({ fileName: "modelo.csv", bytes: new TextEncoder().encode(csv) });
    if (!read.ok) throw new Error(read.problem);
    expect(read.rows.map((row) => row.cells)).toEqual(TEMPLATE_EXAMPLES);
    const validated = validatePayoutRows(read.rows);
    expect(validated.map((row) => row.problems)).toEqual([[], [], []]);
    expect(validated.map((row) => row.value?.pixKeyType)).toEqual(["cpf", "email", "phone"]);
  });

  it("is an XLSX with the same content: bold header, amounts as R$ numbers, keys and documents as text", async () => {
    const bytes = await templateXlsx();
    const sheet = await sheetOf(bytes);
    expect(sheet.getRow(1).values).toEqual([undefined, ...PAYOUT_HEADERS]);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(3)).toMatchObject({ value: 1234.56, numFmt: '"R$" #,##0.00' });
    expect(sheet.getRow(2).getCell(5)).toMatchObject({ value: "529.982.247-25", numFmt: "@" });
    expect(sheet.getColumn(5).numFmt).toBe("@");
    const read = await readPayoutFile({ fileName: "modelo.xlsx", bytes });
    if (!read.ok) throw new Error(read.problem);
    const validated = validatePayoutRows(read.rows);
    expect(validated.map((row) => row.value?.amountCents)).toEqual([123456, 25000, 8990]);
    expect(validated.map((row) => row.value?.pixKey)).toEqual(["52998224725", "maria.souza@example.com", "+5511987654321"]);
  });

  it("is built once per process: a second download is the same bytes, at once", async () => {
    const first = await templateXlsx();
    const started = performance.now();
    expect(await templateXlsx()).toBe(first);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("the results", () => {
  const rows: ResultRow[] = [
    {
      line: 2,
      reference: "p-1",
      pixKey: "52998224725",
      name: "Joao da Silva",
      amountCents: 123456,
      status: "Concluída",
      withdrawId: "wd_1",
      feeCents: 150,
      error: null,
    },
    {
      line: 3,
      reference: null,
      pixKey: "+5511987654321",
      name: '=HYPERLINK("http://x";"clique")',
      amountCents: 5,
      status: "Recusada",
      withdrawId: null,
      feeCents: null,
      error: "Chave não encontrada; confira",
    },
  ];

  it("as CSV: pt-BR amounts, semicolons, nothing Excel would run as a formula", () => {
    const lines = resultsCsv(rows)
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    expect(lines[0]).toBe(RESULT_HEADERS.join(";"));
    expect(lines[0]).toBe("linha;identificador;chave_pix;nome;valor;status;id_saque;taxa;erro");
    expect(lines[1]).toBe("2;p-1;52998224725;Joao da Silva;1234,56;Concluída;wd_1;1,50;");
    expect(lines[2]).toBe('3;;+5511987654321;"\'=HYPERLINK(""http://x"";""clique"")";0,05;Recusada;;;"Chave não encontrada; confira"');
    expect(resultsCsv([]).startsWith("\uFEFF")).toBe(true);
  });

  it("as XLSX: amounts and fees as numbers in R$", async () => {
    const sheet = await sheetOf(await resultsXlsx(rows));
    expect(sheet.getRow(1).values).toEqual([undefined, ...RESULT_HEADERS]);
    expect(sheet.getRow(2).getCell(5)).toMatchObject({ value: 1234.56, numFmt: '"R$" #,##0.00' });
    expect(sheet.getRow(2).getCell(8)).toMatchObject({ value: 1.5 });
    expect(sheet.getRow(3).getCell(4).value).toBe('=HYPERLINK("http://x";"clique")'); // a string cell, not a formula
    expect(sheet.getRow(3).getCell(8).value).toBeNull();
  });
});

describe("the payouts messages", () => {
  const areas = [payouts["pt-BR"], payouts.en] as const;

  it("say every row and file problem, and the daily limit, in both languages, as valid ICU", () => {
    for (const messages of areas) {
      const problems = messages.problems as Record<string, string>;
      expect(Object.keys(problems).sort()).toEqual([...ROW_PROBLEM_CODES, ...FILE_PROBLEM_CODES, "dailyLimitExceeded"].sort());
      for (const [code, text] of Object.entries(problems)) {
        expect(text.trim(), code).not.toBe("");
        expect(() => new IntlMessageFormat(text, "pt-BR"), code).not.toThrow();
      }
      // Counts arrive formatted in the user's language (the browser's reader takes them as text).
      expect(new IntlMessageFormat(problems.tooManyRows, "pt-BR").format({ rows: "6.000", max: "5.000" })).toContain("6.000");
    }
  });

  it("describe every template column", () => {
    for (const messages of areas) expect(Object.keys(messages.columns)).toEqual([...PAYOUT_HEADERS]);
  });
});
