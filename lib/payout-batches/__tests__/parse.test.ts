import ExcelJS from "exceljs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cnpjCheckDigits, cpfCheckDigits } from "@/lib/br";
import { fieldForHeader, headerKey, keyTypeFromWord, PAYOUT_HEADERS } from "@/lib/payout-batches/columns";
import {
  MAX_BYTES,
  MAX_ROWS,
  MAX_XLSX_UNPACKED_BYTES,
  decodeWindows1252,
  readPayoutFile,
  xlsxUnpackedBytes,
  type ReadResult,
} from "@/lib/payout-batches/parse";
import { FILE_PROBLEM_CODES, validatePayoutRows } from "@/lib/payout-batches/validate";

const utf8 = (text: string) => new TextEncoder().encode(text);
const withBom = (text: string) => utf8(`\uFEFF${text}`);

const CP1252_REVERSE: Record<string, number> = { "€": 0x80, "–": 0x96, "—": 0x97, "“": 0x93, "”": 0x94, "‘": 0x91, "’": 0x92 };
/** Windows-1252 bytes, as Excel pt-BR's "CSV (separado por vírgulas)" saves them. */
function cp1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((char) => CP1252_REVERSE[char] ?? (char.charCodeAt(0) < 256 ? char.charCodeAt(0) : 0x3f)));
}

function rowsOf(result: ReadResult) {
  if (!result.ok) throw new Error(`expected rows, got ${result.problem} ${JSON.stringify(result.detail)}`);
  return result.rows;
}

/** A valid CPF starting with 0 whose number without the zero is no phone either (area code 23 does not exist). */
const CPF_WITH_ZERO = `023456789${cpfCheckDigits("023456789")}`;
const CNPJ_WITH_ZERO = `012223330001${cnpjCheckDigits("012223330001")}`;

const EXCEL_PT_BR =
  "chave_pix;tipo_chave;valor;nome;documento;descricao;identificador\r\n" +
  "529.982.247-25;cpf;1.234,56;João da Silva;529.982.247-25;Comissão – março;p-1\r\n" +
  "maria@example.com;e-mail;R$ 10,00;Maria Conceição;123.456.789-09;;p-2\r\n";

describe("readPayoutFile: CSV as spreadsheets save it", () => {
  it("reads the semicolon CSV Excel pt-BR writes (Windows-1252, CRLF, 1.234,56, masked CPF)", async () => {
    const result = await readPayoutFile({ fileName: "pagamentos.csv", bytes: cp1252(EXCEL_PT_BR) });
    expect(result).toMatchObject({ ok: true, format: "csv", ignoredColumns: [] });
    const rows = rowsOf(result);
    expect(rows).toEqual([
      {
        line: 2,
        cells: {
          pixKey: "529.982.247-25",
          pixKeyType: "cpf",
          amount: "1.234,56",
          name: "João da Silva",
          document: "529.982.247-25",
          description: "Comissão – março",
          reference: "p-1",
        },
      },
      {
        line: 3,
        cells: {
          pixKey: "maria@example.com",
          pixKeyType: "e-mail",
          amount: "R$ 10,00",
          name: "Maria Conceição",
          document: "123.456.789-09",
          description: "",
          reference: "p-2",
        },
      },
    ]);
    const validated = validatePayoutRows(rows);
    expect(validated.map((row) => row.value?.amountCents)).toEqual([123456, 1000]);
    expect(validated[0].value).toMatchObject({ pixKey: "52998224725", ownerName: "Joao da Silva", ownerDocumentNumber: "52998224725" });
  });

  it("reads UTF-8 with a BOM (Excel's CSV UTF-8) and without", async () => {
    for (const bytes of [withBom(EXCEL_PT_BR), utf8(EXCEL_PT_BR)]) {
      const rows = rowsOf(await readPayoutFile({ fileName: "a.csv", bytes }));
      expect(rows.map((row) => row.cells.name)).toEqual(["João da Silva", "Maria Conceição"]);
      expect(rows[0].cells.pixKey).toBe("529.982.247-25"); // the BOM is not part of the first header
    }
  });

  it("falls back to Windows-1252 only when the bytes are not UTF-8", async () => {
    const latin = cp1252("chave_pix;valor;nome;documento\nfulano@x.com;10;Conceição “Ção” Ñandú €;52998224725\n");
    const rows = rowsOf(await readPayoutFile({ fileName: "latin.csv", bytes: latin }));
    expect(rows[0].cells.name).toBe("Conceição “Ção” Ñandú €");
    expect(decodeWindows1252(Uint8Array.from([0x4a, 0xe3, 0x6f, 0x80, 0x96]))).toBe("Jão€–");
  });

  it("reads UTF-16 with a BOM (Excel's Unicode text, tab-separated)", async () => {
    const text = "chave_pix\tvalor\tnome\tdocumento\r\nfulano@x.com\t10,50\tJoão\t529.982.247-25\r\n";
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
      bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
    }
    const rows = rowsOf(await readPayoutFile({ fileName: "unicode.txt", bytes }));
    expect(rows[0].cells).toMatchObject({ name: "João", amount: "10,50" });
  });

  it("reads a comma CSV with quoted fields (commas, quotes and a line break inside)", async () => {
    const text = [
      "pix_key,amount,name,document,description",
      '"fulano@x.com","1,234.56","Silva, João","529.982.247-25","Pagamento ""extra"""',
      'ana@x.com,10.5,Ana,123.456.789-09,"duas',
      'linhas"',
      "bia@x.com,7,Bia,11.222.333/0001-81,",
    ].join("\n");
    const rows = rowsOf(await readPayoutFile({ fileName: "export.csv", bytes: utf8(text) }));
    expect(rows.map((row) => [row.line, row.cells.name, row.cells.amount, row.cells.description])).toEqual([
      [2, "Silva, João", "1,234.56", 'Pagamento "extra"'],
      [3, "Ana", "10.5", "duas\nlinhas"],
      [4, "Bia", "7", ""], // a record spanning two text lines is one spreadsheet row
    ]);
  });

  it("picks the delimiter that finds the header even when amounts are full of commas", async () => {
    const text = "valor;chave_pix;nome;documento\n1,00;a@b.com;A;52998224725\n2,00;c@d.com;C;52998224725\n";
    const rows = rowsOf(await readPayoutFile({ fileName: "x.csv", bytes: utf8(text) }));
    expect(rows.map((row) => row.cells.amount)).toEqual(["1,00", "2,00"]);
  });

  it('honours Excel\'s "sep=" line, and ="…" cells that keep leading zeros', async () => {
    const text = `sep=,\r\nchave_pix,valor,nome,documento\r\n="${CPF_WITH_ZERO}",10,Ana,="${CPF_WITH_ZERO}"\r\n`;
    const rows = rowsOf(await readPayoutFile({ fileName: "x.csv", bytes: utf8(text) }));
    expect(rows).toEqual([{ line: 2, cells: expect.objectContaining({ pixKey: CPF_WITH_ZERO, document: CPF_WITH_ZERO }) }]);
  });

  it("skips fully empty lines but keeps each row's own line number", async () => {
    const text = "chave_pix;valor;nome;documento;extra\n\na@b.com;1;A;52998224725;x\n;;;;\n;;;;only-extra\nc@d.com;2;C;52998224725;\n\n";
    const rows = rowsOf(await readPayoutFile({ fileName: "x.csv", bytes: utf8(text) }));
    expect(rows.map((row) => row.line)).toEqual([3, 6]);
  });

  it("finds the header below a title line", async () => {
    const text = "Pagamentos de março;;;\n\nChave Pix;Valor (R$);Nome do recebedor;CPF/CNPJ\na@b.com;1;A;52998224725\n";
    const rows = rowsOf(await readPayoutFile({ fileName: "x.csv", bytes: utf8(text) }));
    expect(rows).toEqual([{ line: 4, cells: expect.objectContaining({ pixKey: "a@b.com", amount: "1", document: "52998224725" }) }]);
  });
});

describe("readPayoutFile: pasted rows", () => {
  it("reads tab-separated text copied from Excel or Sheets", async () => {
    const pasted = "Chave Pix\tValor\tNome\tCPF/CNPJ\r\n(11) 98765-4321\t1.234,56\tJoão\t529.982.247-25\r\nana@x.com\t10\tAna\t12345678909";
    const result = await readPayoutFile({ pasted });
    expect(result).toMatchObject({ ok: true, format: "paste" });
    expect(rowsOf(result).map((row) => [row.line, row.cells.pixKey, row.cells.amount])).toEqual([
      [2, "(11) 98765-4321", "1.234,56"],
      [3, "ana@x.com", "10"],
    ]);
  });

  it("reads semicolons too, and refuses an empty paste", async () => {
    expect(rowsOf(await readPayoutFile({ pasted: "chave_pix;valor;nome;documento\na@b.com;1;A;52998224725" }))).toHaveLength(1);
    expect(await readPayoutFile({ pasted: "  \n\t\n" })).toEqual({ ok: false, problem: "empty" });
  });
});

describe("readPayoutFile: headers", () => {
  it("matches headers whatever their case, accents, spacing, order or language, and lists the ignored ones", async () => {
    const text =
      "Observação;NOME DO RECEBEDOR;cpf / cnpj;Valor (R$);Chave PIX;Tipo de chave;Referência;Banco\nobs;Ana;52998224725;10;a@b.com;E-mail;r1;341\n";
    const result = await readPayoutFile({ fileName: "x.csv", bytes: utf8(text) });
    expect(result).toMatchObject({ ok: true, ignoredColumns: ["Banco"] });
    expect(rowsOf(result)[0].cells).toEqual({
      pixKey: "a@b.com",
      pixKeyType: "E-mail",
      amount: "10",
      name: "Ana",
      document: "52998224725",
      description: "obs",
      reference: "r1",
    });
  });

  it("knows the template's headers, the English ones and common variants", () => {
    expect(PAYOUT_HEADERS).toEqual(["chave_pix", "tipo_chave", "valor", "nome", "documento", "descricao", "identificador"]);
    const cases: Array<[string, string]> = [
      ["pix_key", "pixKey"],
      ["Chave Pix", "pixKey"],
      ["key_type", "pixKeyType"],
      ["Tipo da chave", "pixKeyType"],
      ["amount", "amount"],
      ["Valor (R$)", "amount"],
      ["name", "name"],
      ["Nome do recebedor", "name"],
      ["Favorecido", "name"],
      ["document", "document"],
      ["CPF/CNPJ", "document"],
      ["description", "description"],
      ["Descrição", "description"],
      ["identifier", "reference"],
      ["reference", "reference"],
      ["Identificador", "reference"],
      ["  chave_pix*  ", "pixKey"],
    ];
    for (const [header, field] of cases) expect(fieldForHeader(header), header).toBe(field);
    expect(fieldForHeader("Banco")).toBeNull();
    expect(headerKey("Valor (R$)")).toBe("valor");
  });

  it("reads the key type in pt-BR words too", () => {
    expect(
      ["cpf", "CNPJ", "e-mail", "Email", "celular", "Telefone", "phone", "aleatória", "aleatoria", "EVP", "random"].map(keyTypeFromWord),
    ).toEqual(["cpf", "cnpj", "email", "email", "phone", "phone", "phone", "random", "random", "random", "random"]);
    expect(keyTypeFromWord("boleto")).toBeNull();
  });

  it("keeps the first of two columns with the same meaning", async () => {
    const text = "chave_pix;valor;nome;documento;Nome do recebedor\na@b.com;1;Primeiro;52998224725;Segundo\n";
    const result = await readPayoutFile({ fileName: "x.csv", bytes: utf8(text) });
    expect(result).toMatchObject({ ok: true, ignoredColumns: ["Nome do recebedor"] });
    expect(rowsOf(result)[0].cells.name).toBe("Primeiro");
  });

  it("refuses a file without the required columns, naming the missing ones", async () => {
    const result = await readPayoutFile({ fileName: "x.csv", bytes: utf8("chave_pix;nome\na@b.com;Ana\n") });
    expect(result).toEqual({ ok: false, problem: "noHeader", detail: { missing: "valor, documento" } });
    const none = await readPayoutFile({ fileName: "x.csv", bytes: utf8("foo;bar\n1;2\n") });
    expect(none).toEqual({ ok: false, problem: "noHeader", detail: { missing: "chave_pix, valor, nome, documento" } });
  });
});

describe("readPayoutFile: file problems", () => {
  const header = "chave_pix;valor;nome;documento\n";
  const lines = (n: number) => header + Array.from({ length: n }, (_, i) => `a${i}@b.com;${i + 1},00;Nome ${i};52998224725`).join("\n");

  it(`takes ${MAX_ROWS} rows and refuses one more`, async () => {
    expect(rowsOf(await readPayoutFile({ fileName: "x.csv", bytes: utf8(lines(MAX_ROWS)) }))).toHaveLength(MAX_ROWS);
    expect(await readPayoutFile({ fileName: "x.csv", bytes: utf8(lines(MAX_ROWS + 1)) })).toEqual({
      ok: false,
      problem: "tooManyRows",
      detail: { rows: MAX_ROWS + 1, max: MAX_ROWS },
    });
  });

  it("refuses an empty file, blank lines only, or a header without rows", async () => {
    for (const bytes of [new Uint8Array(0), utf8("\r\n\r\n  \r\n"), withBom(""), utf8(header), utf8(`${header};;;\n`)]) {
      expect(await readPayoutFile({ fileName: "x.csv", bytes })).toEqual({ ok: false, problem: "empty" });
    }
  });

  it("refuses a file over the size limit before reading it", async () => {
    const result = await readPayoutFile({ fileName: "x.csv", bytes: new Uint8Array(MAX_BYTES + 1) });
    expect(result).toMatchObject({ ok: false, problem: "tooLarge", detail: { maxMb: 5 } });
    expect(await readPayoutFile({ pasted: "a".repeat(MAX_BYTES + 1) })).toMatchObject({ ok: false, problem: "tooLarge" });
  });

  it("refuses what is not CSV or XLSX: binary, the old .xls, a corrupt or foreign zip", async () => {
    const binary = Uint8Array.from({ length: 512 }, (_, i) => (i * 37) % 256);
    const xls = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    const corruptZip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await readPayoutFile({ fileName: "x.pdf", bytes: binary })).toMatchObject({ ok: false, problem: "unreadable" });
    expect(await readPayoutFile({ fileName: "x.xls", bytes: xls })).toEqual({
      ok: false,
      problem: "unreadable",
      detail: { reason: "xls" },
    });
    expect(await readPayoutFile({ fileName: "x.xlsx", bytes: corruptZip })).toMatchObject({ ok: false, problem: "unreadable" });
  });
});

describe("readPayoutFile: XLSX", () => {
  async function xlsx(build: (sheet: ExcelJS.Worksheet, workbook: ExcelJS.Workbook) => void): Promise<Uint8Array> {
    const workbook = new ExcelJS.Workbook();
    build(workbook.addWorksheet("Planilha1"), workbook);
    return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
  }

  it("refuses, before unpacking it, a file whose parts claim more than a batch can hold (a zip bomb), and reads the sizes of an honest one", async () => {
    const honest = await xlsx((sheet) => {
      sheet.addRow(["chave_pix", "valor", "nome", "documento"]);
      sheet.addRow(["a@example.com", 10, "Ana", "529.982.247-25"]);
    });
    const unpacked = xlsxUnpackedBytes(honest);
    expect(unpacked).toBeGreaterThan(1_000);
    expect(unpacked).toBeLessThan(MAX_XLSX_UNPACKED_BYTES);
    expect(await readPayoutFile({ fileName: "ok.xlsx", bytes: honest })).toMatchObject({ ok: true });

    // The same file, its worksheet claiming 1 GB once unpacked.
    const bomb = honest.slice();
    const view = new DataView(bomb.buffer);
    for (let offset = 0; offset + 46 < bomb.length; offset++) {
      if (view.getUint32(offset, true) !== 0x02014b50) continue;
      const name = new TextDecoder().decode(bomb.subarray(offset + 46, offset + 46 + view.getUint16(offset + 28, true)));
      if (name.includes("worksheets/sheet1")) view.setUint32(offset + 24, 1024 * 1024 * 1024, true);
    }
    expect(xlsxUnpackedBytes(bomb)).toBeGreaterThan(MAX_XLSX_UNPACKED_BYTES);
    expect(await readPayoutFile({ fileName: "bomb.xlsx", bytes: bomb })).toMatchObject({ ok: false, problem: "tooLargeUnpacked" });
    expect(xlsxUnpackedBytes(new TextEncoder().encode("not a zip at all"))).toBeNull();
  });

  it("reads values, not display text: R$ amounts, formulas, rich text, links, numbers where CPFs go", async () => {
    const bytes = await xlsx((sheet) => {
      sheet.addRow(["Chave Pix", "Tipo", "Valor (R$)", "Nome", "CPF/CNPJ", "Descrição", "Identificador"]);
      const r2 = sheet.addRow([52998224725, "cpf", 1234.56, "João da Silva", 52998224725, "Comissão", 1001]);
      r2.getCell(3).numFmt = '"R$" #,##0.00';
      const r3 = sheet.addRow([
        { text: "maria@example.com", hyperlink: "mailto:maria@example.com" },
        null,
        { formula: "C2/2", result: 617.28 },
        { richText: [{ text: "Maria " }, { text: "Conceição", font: { bold: true } }] },
        Number(CPF_WITH_ZERO),
        { formula: 'CONCAT("a","b")', result: "ab" },
        "ref-2",
      ]);
      r3.getCell(3).numFmt = "#,##0.00";
      sheet.addRow([Number(CPF_WITH_ZERO), "", 0.1 + 0.2, "Ana", 11222333000181, "", ""]);
      sheet.addRow([Number(CPF_WITH_ZERO), "cpf", 1.234, "Bia", Number(CNPJ_WITH_ZERO), "", ""]);
    });
    const result = await readPayoutFile({ fileName: "lote.xlsx", bytes });
    expect(result).toMatchObject({ ok: true, format: "xlsx", ignoredColumns: [] });
    const rows = rowsOf(result);
    expect(rows[0]).toEqual({
      line: 2,
      cells: {
        pixKey: "52998224725",
        pixKeyType: "cpf",
        amount: "1234.56",
        name: "João da Silva",
        document: "52998224725",
        description: "Comissão",
        reference: "1001",
      },
    });
    expect(rows[1].cells).toMatchObject({
      pixKey: "maria@example.com",
      amount: "617.28",
      name: "Maria Conceição",
      document: CPF_WITH_ZERO,
      description: "ab",
    });
    // A CPF key typed as a number lost its leading zero: back when it makes a valid CPF (and not a phone).
    expect(rows[2].cells).toMatchObject({ pixKey: CPF_WITH_ZERO, amount: "0.3", document: "11222333000181" });
    // 1.234 in a number cell is one real and 234 thousandths, never one thousand: kept refusable.
    expect(rows[3].cells).toMatchObject({ amount: "1.2340", document: CNPJ_WITH_ZERO });
    const validated = validatePayoutRows(rows);
    expect(validated.map((row) => row.value?.amountCents ?? row.problems.find((p) => p.severity === "error")?.code)).toEqual([
      123456,
      61728,
      30,
      "amountTooManyDecimals",
    ]);
  });

  it("flags a date cell and a formula error instead of reading them as text", async () => {
    const bytes = await xlsx((sheet) => {
      sheet.addRow(["chave_pix", "valor", "nome", "documento", "descricao"]);
      sheet.addRow(["a@b.com", 10, "Ana", "52998224725", new Date(Date.UTC(2025, 2, 1))]);
      sheet.addRow(["c@d.com", { formula: "1/0", result: { error: "#DIV/0!" } }, "Bia", "52998224725", ""]);
    });
    const rows = rowsOf(await readPayoutFile({ fileName: "x.xlsx", bytes }));
    expect(rows[0]).toEqual({ line: 2, cells: expect.objectContaining({ description: "01/03/2025" }), dateCells: ["description"] });
    expect(rows[1].cells.amount).toBe("#DIV/0!");
    const validated = validatePayoutRows(rows);
    expect(validated[0].problems).toEqual([{ code: "cellIsDate", field: "description", severity: "error" }]);
    expect(validated[1].problems).toEqual([{ code: "cellIsError", field: "amount", severity: "error" }]);
  });

  it("reads the first visible worksheet, skips empty rows, keeps Excel's row numbers", async () => {
    const bytes = await xlsx((hidden, workbook) => {
      hidden.state = "hidden";
      hidden.addRow(["nothing", "here"]);
      const sheet = workbook.addWorksheet("Lote");
      sheet.getCell("A1").value = "Transferências de março";
      sheet.getRow(3).values = ["chave_pix", "valor", "nome", "documento", "Banco"];
      sheet.getRow(4).values = ["a@b.com", 10, "Ana", "52998224725", 341];
      sheet.getRow(6).values = ["b@b.com", 20, "Bia", "52998224725"];
      sheet.getRow(7).getCell(1).numFmt = "@"; // a formatted but empty row
    });
    const result = await readPayoutFile({ fileName: "x.xlsx", bytes });
    expect(result).toMatchObject({ ok: true, ignoredColumns: ["Banco"] });
    expect(rowsOf(result).map((row) => [row.line, row.cells.pixKey])).toEqual([
      [4, "a@b.com"],
      [6, "b@b.com"],
    ]);
  });

  it("refuses an XLSX with only a header", async () => {
    const bytes = await xlsx((sheet) => sheet.addRow(["chave_pix", "valor", "nome", "documento"]));
    expect(await readPayoutFile({ fileName: "x.xlsx", bytes })).toEqual({ ok: false, problem: "empty" });
  });
});

describe("readPayoutFile: never throws", () => {
  const answered = (result: ReadResult) =>
    result.ok ? expect(result.rows.length).toBeGreaterThan(0) : expect(FILE_PROBLEM_CODES).toContain(result.problem);

  it("on any pasted text or bytes, header or not", async () => {
    const header = fc.constantFrom(
      "",
      "chave_pix;valor;nome;documento\n",
      "chave_pix\tvalor\tnome\tdocumento\r\n",
      'pix_key,amount,name,document\n"',
    );
    await fc.assert(
      fc.asyncProperty(header, fc.string({ unit: "binary", maxLength: 300 }), async (head, body) => {
        answered(await readPayoutFile({ pasted: head + body }));
        const bytes = new TextEncoder().encode(head + body);
        answered(await readPayoutFile({ fileName: "x.csv", bytes }));
      }),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.boolean(), async (bytes, zip) => {
        const data = zip ? Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...bytes]) : bytes;
        answered(await readPayoutFile({ fileName: zip ? "x.xlsx" : "x.csv", bytes: data }));
      }),
      { numRuns: 200 },
    );
  });
});
