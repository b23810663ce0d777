import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { barcodeToDigitableLine, itfBars } from "../../lib/br";
import { renderBoletoPdf, toWinAnsi, type BoletoPdfInput } from "./boleto-pdf";

const BARCODE = "34196790600001000002220000005566385101214000";

const input: BoletoPdfInput = {
  bankName: "Banco Sandbox S.A.",
  bankCode: "341-7",
  digitableLine: barcodeToDigitableLine(BARCODE)!,
  barcode: BARCODE,
  amount: 1000,
  dueDate: "2019-05-31",
  beneficiaryName: "Padaria São João (Matriz) \\ Ltda",
  beneficiaryDocument: "11222333000181",
  payerName: "José Antônio da Conceição",
  payerDocument: "12345678909",
  documentNumber: "NF-2019/0042",
  instructions: ["Não receber após o vencimento.", "Após o vencimento cobrar multa de 2% e juros de 1% ao mês — valores em R$. ".repeat(4)],
};

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

function parseStructure(pdf: string) {
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n?$/.exec(pdf)![1]);
  const xref = pdf.slice(startxref);
  const header = /^xref\n0 (\d+)\n/.exec(xref)!;
  const count = Number(header[1]);
  const entries = xref.slice(header[0].length).split("\n").slice(0, count);
  return { startxref, count, entries };
}

function contentStream(pdf: string): string {
  const match = /4 0 obj\n<< \/Length (\d+) >>\nstream\n/.exec(pdf)!;
  const start = match.index + match[0].length;
  const length = Number(match[1]);
  expect(pdf.slice(start + length, start + length + 10)).toBe("\nendstream");
  return pdf.slice(start, start + length);
}

function hasTool(command: string, versionFlag: string): boolean {
  try {
    execFileSync(command, [versionFlag], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("renderBoletoPdf", () => {
  const bytes = renderBoletoPdf(input);
  const pdf = latin1(bytes);

  it("is a PDF 1.4 file", () => {
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(pdf.startsWith("%PDF-1.4\n")).toBe(true);
    expect(pdf.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(pdf).toContain("/MediaBox [0 0 595.28 841.89]");
    expect(pdf).toContain("/BaseFont /Helvetica /Encoding /WinAnsiEncoding");
  });

  it("has an xref table whose offsets point at each object", () => {
    const { startxref, count, entries } = parseStructure(pdf);
    expect(pdf.slice(startxref, startxref + 4)).toBe("xref");
    expect(count).toBe(8);
    expect(entries[0]).toBe("0000000000 65535 f ");
    for (let n = 1; n < count; n++) {
      expect(entries[n]).toMatch(/^\d{10} 00000 n $/);
      const offset = Number(entries[n].slice(0, 10));
      expect(pdf.slice(offset, offset + `${n} 0 obj`.length)).toBe(`${n} 0 obj`);
    }
    expect(pdf).toContain(`/Size ${count} /Root 1 0 R`);
  });

  it("draws one filled rectangle per ITF bar", () => {
    const stream = contentStream(pdf);
    const filled = stream.split("\n").filter((op) => op.endsWith(" re f"));
    expect(filled).toHaveLength(itfBars(BARCODE).bars.length);
  });

  it("writes the slip's text in WinAnsi bytes, escaped", () => {
    const stream = contentStream(pdf);
    expect(stream).toContain("(34192.22009 00005.566385 51012.140003 6 79060000100000)");
    expect(stream).toContain("(Recibo do Pagador)");
    expect(stream).toContain("(R$ 1.000,00)");
    expect(stream).toContain("(31/05/2019)");
    expect(stream).toContain("(NF-2019/0042)");
    expect(stream).toContain("Jos\xe9 Ant\xf4nio da Concei\xe7\xe3o");
    expect(stream).toContain("(Benefici\xe1rio)");
    expect(stream).toContain("Padaria S\xe3o Jo\xe3o \\(Matriz\\) \\\\ Ltda");
    expect(stream).toContain("11.222.333/0001-81");
    expect(stream).toContain("123.456.789-09");
    expect(stream).toContain("N\xe3o receber ap\xf3s o vencimento.");
    expect(stream).toContain("\x97 valores");
    expect(/[^\x00-\xff]/.test(pdf)).toBe(false);
  });

  it("shows contra-apresentação when there is no due date and refuses a bad barcode", () => {
    const stream = contentStream(latin1(renderBoletoPdf({ ...input, dueDate: null, instructions: undefined })));
    expect(stream).toContain("(Contra-apresenta\xe7\xe3o)");
    expect(() => renderBoletoPdf({ ...input, barcode: "123" })).toThrow(RangeError);
  });

  it("maps characters outside WinAnsi to safe fallbacks", () => {
    expect(toWinAnsi("Ação €5 “ok” ŝ 中")).toBe("A\xe7\xe3o \x805 \x93ok\x94 s ?");
    expect(toWinAnsi("a\tb\nc")).toBe("a b c");
  });

  it("extracts as text when poppler is available", () => {
    if (!hasTool("pdftotext", "-v")) return;
    const dir = mkdtempSync(path.join(tmpdir(), "boleto-pdf-"));
    const file = path.join(dir, "boleto.pdf");
    writeFileSync(file, bytes);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Beneficiário");
    expect(text).toContain("José Antônio da Conceição");
    expect(text).toContain("R$ 1.000,00");
  });

  it("draws a barcode that scans back to the 44 digits when poppler and zbar are available", () => {
    if (!hasTool("pdftoppm", "-v") || !hasTool("zbarimg", "--version")) return;
    const dir = mkdtempSync(path.join(tmpdir(), "boleto-scan-"));
    writeFileSync(path.join(dir, "boleto.pdf"), bytes);
    execFileSync("pdftoppm", ["-r", "200", "-png", "-singlefile", path.join(dir, "boleto.pdf"), path.join(dir, "page")]);
    const scanned = execFileSync("zbarimg", ["-q", "--raw", path.join(dir, "page.png")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(scanned.trim()).toBe(BARCODE);
  });
});
