/**
 * Batch payouts: reading and validating a full file. Generates BENCH_ROWS (5,000, the batch limit)
 * realistic rows (CPF, CNPJ, e-mail, phone and random keys, pt-BR amounts and names, about 1% bad
 * rows and a few repeats), writes them as a CSV (UTF-8 with BOM, `;`, as Excel pt-BR saves it) and
 * as an XLSX in memory, then times readPayoutFile and validatePayoutRows: one warm-up, then the
 * median of BENCH_RUNS (5) runs per format. Peak RSS: process.memoryUsage().rss sampled after each
 * read and validation of the format (and the process's maxRSS at the end).
 *
 *   npx tsx scripts/bench/payout-validation.ts     env BENCH_ROWS (5000), BENCH_RUNS (5), BENCH_SEED (28)
 */
import ExcelJS from "exceljs";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { DDDS, formatCnpj, formatCpf, formatMoneyInput, fromCents, generateCnpj, generateCpf, type Rng } from "../../lib/br";
import { PAYOUT_COLUMNS, PAYOUT_HEADERS, type PayoutCells } from "../../lib/payout-batches/columns";
import { readPayoutFile, type PayoutFileInput } from "../../lib/payout-batches/parse";
import { validatePayoutRows } from "../../lib/payout-batches/validate";

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL_MS = 2000;

/** mulberry32: the same file on every run of the bench. */
function seeded(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rng = seeded(Number(process.env.BENCH_SEED ?? 28));
const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rng() * 10)).join("");

const FIRST = ["João", "Maria", "José", "Ana", "Antônio", "Francisca", "Conceição", "Luíza", "Sérgio", "Márcia", "Gabriel", "Letícia"];
const LAST = ["da Silva", "dos Santos", "Oliveira", "Souza", "Pereira", "Conceição", "Araújo", "Gonçalves", "Lima", "Ribeiro"];
const COMPANIES = ["Padaria Pão Quente Ltda", "Comércio São João ME", "Oficina Três Irmãos Ltda", "Açougue Boa Vista EIRELI"];

function uuid(): string {
  const hex = () => Math.floor(rng() * 16).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join("");
  return `${part(8)}-${part(4)}-${part(4)}-${part(4)}-${part(12)}`;
}

function amountText(cents: number): string {
  const written = formatMoneyInput(fromCents(cents));
  const style = rng();
  if (style < 0.5) return written; // 1.234,56
  if (style < 0.7) return `R$ ${written}`;
  if (style < 0.9) return written.replace(/\./g, ""); // 1234,56
  return (cents / 100).toFixed(2); // 1234.56
}

function goodRow(index: number): PayoutCells & { cents: number } {
  const cents = 100 + Math.floor(rng() * rng() * 500_000);
  const person = `${pick(FIRST)} ${pick(LAST)}`;
  const cpf = generateCpf(rng);
  const kind = rng();
  let pixKey: string;
  let pixKeyType = "";
  let name = person;
  let document = rng() < 0.6 ? formatCpf(cpf) : cpf;
  if (kind < 0.35) {
    pixKey = rng() < 0.5 ? formatCpf(cpf) : cpf;
    pixKeyType = rng() < 0.5 ? "cpf" : "";
  } else if (kind < 0.45) {
    const cnpj = generateCnpj(rng, { alphanumeric: rng() < 0.2 });
    pixKey = formatCnpj(cnpj);
    name = pick(COMPANIES);
    document = pixKey;
  } else if (kind < 0.7) {
    pixKey = `${person.split(" ")[0].normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()}.${index}@example.com.br`;
    pixKeyType = pick(["email", "e-mail", ""]);
  } else if (kind < 0.9) {
    const ddd = pick(DDDS);
    const number = `9${digits(8)}`;
    pixKey = rng() < 0.5 ? `(${ddd}) ${number.slice(0, 5)}-${number.slice(5)}` : `+55 ${ddd} ${number.slice(0, 5)}-${number.slice(5)}`;
    pixKeyType = pick(["celular", "phone", ""]);
  } else {
    pixKey = uuid();
    pixKeyType = pick(["aleatoria", "evp", ""]);
  }
  return {
    pixKey,
    pixKeyType,
    amount: amountText(cents),
    cents,
    name,
    document,
    description: rng() < 0.4 ? `Pagamento ${index} — comissão` : "",
    reference: `lote-28-${String(index).padStart(5, "0")}`,
  };
}

/** About 1% of the rows break one rule each; a few repeat an earlier row. */
function generateRows(count: number): Array<PayoutCells & { cents: number }> {
  const rows: Array<PayoutCells & { cents: number }> = [];
  for (let i = 0; i < count; i++) {
    const row = goodRow(i);
    const roll = rng();
    if (roll < 0.002) row.document = "123.456.789-00";
    else if (roll < 0.004) row.amount = "10,005";
    else if (roll < 0.006) row.name = "";
    else if (roll < 0.008) row.pixKey = "fulano@";
    else if (roll < 0.01 && rows.length > 0) Object.assign(row, { ...pick(rows), reference: `${row.reference}-r` });
    rows.push(row);
  }
  return rows;
}

function toCsv(rows: readonly PayoutCells[]): Uint8Array {
  const lines = [PAYOUT_HEADERS.join(";"), ...rows.map((row) => PAYOUT_COLUMNS.map((column) => row[column.field]).join(";"))];
  return new TextEncoder().encode(`\uFEFF${lines.join("\r\n")}\r\n`);
}

async function toXlsx(rows: ReadonlyArray<PayoutCells & { cents: number }>): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Transferências");
  sheet.addRow([...PAYOUT_HEADERS]).font = { bold: true };
  for (const row of rows) {
    // As a spreadsheet holds them: amounts as numbers (R$ format), some CPFs typed as numbers.
    const added = sheet.addRow(
      PAYOUT_COLUMNS.map((column) => {
        if (column.field === "amount") return row.amount === "10,005" ? 10.005 : row.cents / 100;
        if (column.field === "document" && /^\d{11}$/.test(row.document)) return Number(row.document);
        return row[column.field];
      }),
    );
    added.getCell(3).numFmt = '"R$" #,##0.00';
  }
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let peakRss = 0;
const sampleRss = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};

async function once(input: PayoutFileInput): Promise<{ read: number; validate: number; valid: number; rows: number }> {
  const t0 = performance.now();
  const result = await readPayoutFile(input);
  const t1 = performance.now();
  sampleRss();
  if (!result.ok) throw new Error(`file refused: ${result.problem} ${JSON.stringify(result.detail ?? {})}`);
  const validated = validatePayoutRows(result.rows);
  const t2 = performance.now();
  sampleRss();
  return { read: t1 - t0, validate: t2 - t1, valid: validated.filter((row) => row.value).length, rows: validated.length };
}

async function main() {
  const rows = generateRows(ROWS);
  const files: Array<[string, PayoutFileInput, number]> = [];
  const csv = toCsv(rows);
  files.push(["csv", { fileName: "lote.csv", bytes: csv }, csv.byteLength]);
  const xlsx = await toXlsx(rows);
  files.push(["xlsx", { fileName: "lote.xlsx", bytes: xlsx }, xlsx.byteLength]);
  const pasted = new TextDecoder()
    .decode(csv)
    .replace(/^\uFEFF/, "")
    .replace(/;/g, "\t");
  files.push(["paste", { pasted }, Buffer.byteLength(pasted)]);

  console.log(`payout validation bench: ${ROWS} rows, median of ${RUNS} runs after 1 warm-up, node ${process.version}`);
  const table: Array<Record<string, string | number>> = [];
  for (const [format, input, bytes] of files) {
    peakRss = 0;
    await once(input);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(input));
    const total = median(runs.map((run) => run.read + run.validate));
    sampleRss();
    table.push({
      format,
      "size KB": Math.round(bytes / 1024),
      rows: runs[0].rows,
      valid: runs[0].valid,
      "read ms": Math.round(median(runs.map((run) => run.read))),
      "validate ms": Math.round(median(runs.map((run) => run.validate))),
      "total ms": Math.round(total),
      "peak RSS MB": Math.round(peakRss / (1024 * 1024)),
      [`goal < ${GOAL_MS} ms`]: total < GOAL_MS ? "met" : "MISSED",
    });
  }
  const columns = Object.keys(table[0]);
  const widths = columns.map((column) => Math.max(column.length, ...table.map((row) => String(row[column]).length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log(line(columns));
  for (const row of table) console.log(line(columns.map((column) => String(row[column]))));
  console.log(
    `peak RSS: sampled after each read and each validation; the process's maximum was ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
