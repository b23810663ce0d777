import { formatDigitableLine } from "../../lib/br/boleto";
import { formatDocument } from "../../lib/br/document";
import { itfBars } from "../../lib/br/itf";
import { formatBrl } from "../../lib/br/money";
import { stripAccents } from "../../lib/br/text";

export type BoletoPdfInput = {
  bankName: string;
  bankCode: string;
  digitableLine: string;
  barcode: string;
  amount: number;
  /** `YYYY-MM-DD`, or null for "contra-apresentação" (no due date). */
  dueDate: string | null;
  beneficiaryName: string;
  beneficiaryDocument: string;
  payerName: string;
  payerDocument: string;
  documentNumber: string;
  instructions?: string[];
};

/*
 * A hand-written PDF 1.4: one A4 page, the two standard Type 1 fonts Helvetica and
 * Helvetica-Bold with WinAnsiEncoding, an uncompressed content stream. Every string below
 * is a "byte string" (one char per byte, codes 0–255) so lengths are byte counts.
 */

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 28;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const RIGHT_COLUMN = 150;
const LEFT_COLUMN = CONTENT_WIDTH - RIGHT_COLUMN;
/** FEBRABAN: narrow bar ≈ 0.254 mm (0.72 pt), bar height 13 mm. */
const BAR_MODULE = 0.72;
const BAR_HEIGHT = 36.85;

/** Helvetica advance widths (1/1000 em) for ASCII 32–126, from the standard AFM metrics. */
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278,
  278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556,
  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** WinAnsiEncoding bytes 0x80–0x9F; 0xA0–0xFF coincide with Latin-1. */
const WIN_ANSI_HIGH: Record<string, number> = {
  "€": 0x80,
  "‚": 0x82,
  ƒ: 0x83,
  "„": 0x84,
  "…": 0x85,
  "†": 0x86,
  "‡": 0x87,
  ˆ: 0x88,
  "‰": 0x89,
  Š: 0x8a,
  "‹": 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
  "˜": 0x98,
  "™": 0x99,
  š: 0x9a,
  "›": 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** Text → WinAnsi byte string; characters outside it fall back to their unaccented form or `?`. */
export function toWinAnsi(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 && code <= 0x7e) out += char;
    else if (code >= 0xa0 && code <= 0xff) out += char;
    else if (char in WIN_ANSI_HIGH) out += String.fromCharCode(WIN_ANSI_HIGH[char]);
    else if (/\s/.test(char)) out += " ";
    else {
      const plain = stripAccents(char);
      out += /^[\x20-\x7e]+$/.test(plain) ? plain : "?";
    }
  }
  return out;
}

/** Approximate width in points; non-ASCII glyphs are measured as their base letter. */
function textWidth(bytes: string, size: number, bold: boolean): number {
  let units = 0;
  for (const char of bytes) {
    const code = char.charCodeAt(0);
    const base = code >= 0x20 && code <= 0x7e ? code : stripAccents(String.fromCharCode(code)).charCodeAt(0);
    units += base >= 0x20 && base <= 0x7e ? HELVETICA_WIDTHS[base - 0x20] : 556;
  }
  return (units / 1000) * size * (bold ? 1.08 : 1);
}

function fit(bytes: string, size: number, bold: boolean, maxWidth: number): string {
  if (textWidth(bytes, size, bold) <= maxWidth) return bytes;
  let cut = bytes;
  while (cut.length > 0 && textWidth(cut + "...", size, bold) > maxWidth) cut = cut.slice(0, -1);
  return cut.trimEnd() + "...";
}

function wrap(bytes: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of bytes.split(" ").filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, size, false) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => fit(l, size, false, maxWidth));
}

function escapePdfString(bytes: string): string {
  return bytes.replace(/[\\()]/g, (c) => `\\${c}`);
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

class Canvas {
  readonly ops: string[] = [];

  /** `top` is measured from the top edge of the page, like the layout below thinks. */
  text(x: number, top: number, value: string, size: number, options: { bold?: boolean; maxWidth?: number; align?: "left" | "right" } = {}) {
    const bold = options.bold ?? false;
    let bytes = toWinAnsi(value);
    if (options.maxWidth !== undefined) bytes = fit(bytes, size, bold, options.maxWidth);
    const left = options.align === "right" ? x - textWidth(bytes, size, bold) : x;
    this.ops.push(`BT /${bold ? "F2" : "F1"} ${num(size)} Tf ${num(left)} ${num(PAGE_HEIGHT - top)} Td (${escapePdfString(bytes)}) Tj ET`);
  }

  rawText(x: number, top: number, bytes: string, size: number) {
    this.ops.push(`BT /F1 ${num(size)} Tf ${num(x)} ${num(PAGE_HEIGHT - top)} Td (${escapePdfString(bytes)}) Tj ET`);
  }

  strokeRect(x: number, top: number, width: number, height: number) {
    this.ops.push(`${num(x)} ${num(PAGE_HEIGHT - top - height)} ${num(width)} ${num(height)} re S`);
  }

  fillRect(x: number, top: number, width: number, height: number) {
    this.ops.push(`${num(x)} ${num(PAGE_HEIGHT - top - height)} ${num(width)} ${num(height)} re f`);
  }

  line(x1: number, top1: number, x2: number, top2: number, width = 0.5, dash?: number) {
    this.ops.push(
      `${dash ? `[${dash} ${dash}] 0 d ` : ""}${num(width)} w ${num(x1)} ${num(PAGE_HEIGHT - top1)} m ${num(x2)} ${num(PAGE_HEIGHT - top2)} l S${dash ? " [] 0 d" : ""} 0.5 w`,
    );
  }
}

function formatDueDate(dueDate: string | null): string {
  if (!dueDate) return "Contra-apresentação";
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(dueDate);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : dueDate;
}

function field(
  canvas: Canvas,
  x: number,
  top: number,
  width: number,
  height: number,
  label: string,
  value: string,
  options: { bold?: boolean; align?: "left" | "right" } = {},
) {
  canvas.strokeRect(x, top, width, height);
  canvas.text(x + 3, top + 7, label, 6, { maxWidth: width - 6 });
  if (value) {
    const valueX = options.align === "right" ? x + width - 4 : x + 3;
    canvas.text(valueX, top + height - 6, value, 9, { bold: options.bold, maxWidth: width - 7, align: options.align });
  }
}

function bankHeader(canvas: Canvas, top: number, input: BoletoPdfInput, line: string) {
  const height = 26;
  canvas.line(MARGIN, top + height, MARGIN + CONTENT_WIDTH, top + height, 1.5);
  canvas.text(MARGIN + 2, top + 18, input.bankName, 12, { bold: true, maxWidth: 140 });
  canvas.line(MARGIN + 148, top + 4, MARGIN + 148, top + height, 1.5);
  canvas.text(MARGIN + 200, top + 19, input.bankCode, 14, { bold: true, maxWidth: 48, align: "right" });
  canvas.line(MARGIN + 204, top + 4, MARGIN + 204, top + height, 1.5);
  canvas.text(MARGIN + CONTENT_WIDTH - 2, top + 18, line, 10.5, { bold: true, maxWidth: CONTENT_WIDTH - 210, align: "right" });
  return top + height;
}

function partyLine(name: string, document: string): string {
  const doc = formatDocument(document);
  return doc ? `${name} — CPF/CNPJ ${doc}` : name;
}

function drawItf(canvas: Canvas, x: number, top: number, barcode: string): number {
  const symbol = itfBars(barcode);
  for (const bar of symbol.bars) canvas.fillRect(x + bar.x * BAR_MODULE, top, bar.width * BAR_MODULE, BAR_HEIGHT);
  return symbol.bars.length;
}

/** Renders a one-page boleto (payer's receipt + compensation slip with the ITF barcode). */
export function renderBoletoPdf(input: BoletoPdfInput): Uint8Array {
  const barcode = input.barcode.replace(/\D/g, "");
  if (barcode.length !== 44) throw new RangeError("Boleto barcode must have 44 digits");
  const line = formatDigitableLine(input.digitableLine);
  const amount = formatBrl(input.amount);
  const due = formatDueDate(input.dueDate);
  const beneficiary = partyLine(input.beneficiaryName, input.beneficiaryDocument);
  const payer = partyLine(input.payerName, input.payerDocument);
  const c = new Canvas();
  c.ops.push("0 g 0 G 0.5 w");

  // Payer's receipt
  let top = 40;
  c.text(MARGIN + CONTENT_WIDTH, top - 4, "Recibo do Pagador", 8, { bold: true, align: "right" });
  top = bankHeader(c, top, input, line);
  field(c, MARGIN, top, LEFT_COLUMN, 26, "Beneficiário", beneficiary);
  field(c, MARGIN + LEFT_COLUMN, top, RIGHT_COLUMN, 26, "Vencimento", due, { bold: true, align: "right" });
  top += 26;
  field(c, MARGIN, top, LEFT_COLUMN, 26, "Pagador", payer);
  field(c, MARGIN + LEFT_COLUMN, top, RIGHT_COLUMN, 26, "Valor do documento", amount, { bold: true, align: "right" });
  top += 26;
  field(c, MARGIN, top, LEFT_COLUMN / 2, 26, "Nº do documento", input.documentNumber);
  field(c, MARGIN + LEFT_COLUMN / 2, top, LEFT_COLUMN / 2, 26, "Espécie", "R$");
  field(c, MARGIN + LEFT_COLUMN, top, RIGHT_COLUMN, 26, "Autenticação mecânica", "");
  top += 26 + 22;

  c.line(MARGIN, top, MARGIN + CONTENT_WIDTH, top, 0.5, 3);
  c.text(MARGIN + CONTENT_WIDTH, top - 3, "Corte na linha pontilhada", 6, { align: "right" });
  top += 26;

  // Compensation slip
  top = bankHeader(c, top, input, line);
  field(c, MARGIN, top, LEFT_COLUMN, 26, "Local de pagamento", "Pagável em qualquer banco, lotérica ou app até o vencimento");
  field(c, MARGIN + LEFT_COLUMN, top, RIGHT_COLUMN, 26, "Vencimento", due, { bold: true, align: "right" });
  top += 26;
  field(c, MARGIN, top, LEFT_COLUMN, 26, "Beneficiário", beneficiary);
  field(c, MARGIN + LEFT_COLUMN, top, RIGHT_COLUMN, 26, "Nº do documento", input.documentNumber, { align: "right" });
  top += 26;
  const third = LEFT_COLUMN / 3;
  field(c, MARGIN, top, third, 26, "Espécie moeda", "R$");
  field(c, MARGIN + third, top, third, 26, "Quantidade", "");
  field(c, MARGIN + 2 * third, top, third, 26, "Aceite", "N");
  field(c, MARGIN + LEFT_COLUMN, top, RIGHT_COLUMN, 26, "(=) Valor do documento", amount, { bold: true, align: "right" });
  top += 26;

  const instructionsHeight = 104;
  c.strokeRect(MARGIN, top, LEFT_COLUMN, instructionsHeight);
  c.text(MARGIN + 3, top + 7, "Instruções (texto de responsabilidade do beneficiário)", 6);
  const instructionLines = (input.instructions ?? []).flatMap((text) => wrap(toWinAnsi(text), 8, LEFT_COLUMN - 14));
  const maxLines = Math.floor((instructionsHeight - 14) / 10);
  instructionLines.slice(0, maxLines).forEach((bytes, i) => c.rawText(MARGIN + 4, top + 19 + i * 10, bytes, 8));
  const sideLabels = ["(-) Desconto / Abatimento", "(+) Mora / Multa", "(=) Valor cobrado", ""];
  sideLabels.forEach((label, i) => field(c, MARGIN + LEFT_COLUMN, top + i * 26, RIGHT_COLUMN, 26, label, ""));
  top += instructionsHeight;

  c.strokeRect(MARGIN, top, CONTENT_WIDTH, 36);
  c.text(MARGIN + 3, top + 7, "Pagador", 6);
  c.text(MARGIN + 3, top + 19, input.payerName, 9, { maxWidth: CONTENT_WIDTH - 8 });
  c.text(MARGIN + 3, top + 30, `CPF/CNPJ ${formatDocument(input.payerDocument)}`, 8, { maxWidth: CONTENT_WIDTH - 8 });
  top += 36 + 6;
  c.text(MARGIN + CONTENT_WIDTH, top + 4, "Autenticação mecânica — Ficha de Compensação", 6, { align: "right" });

  drawItf(c, MARGIN + 10 * BAR_MODULE, top + 8, barcode);

  return assemblePdf(c.ops.join("\n"), `Boleto ${input.documentNumber}`);
}

function assemblePdf(content: string, title: string): Uint8Array {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(PAGE_WIDTH)} ${num(PAGE_HEIGHT)}] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Title (${escapePdfString(toWinAnsi(title))}) /Producer (Sandbox gateway) >>`,
  ];
  // The binary comment tells transfer tools the file is not plain text.
  let pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefOffset = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;

  const bytes = new Uint8Array(pdf.length);
  for (let i = 0; i < pdf.length; i++) bytes[i] = pdf.charCodeAt(i);
  return bytes;
}
