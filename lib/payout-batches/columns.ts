import { stripAccents } from "@/lib/br";

/** A row's cells as text (trimmed), one per template column. */
export type PayoutCells = {
  pixKey: string;
  pixKeyType: string;
  amount: string;
  name: string;
  document: string;
  description: string;
  reference: string;
};

export type PayoutField = keyof PayoutCells;

/** One data row of a file as read (see `readPayoutFile`). */
export type PayoutRowInput = {
  /** The row number the user sees in their spreadsheet (the header is usually line 1). */
  line: number;
  cells: PayoutCells;
  /** Cells that were dates in the spreadsheet (XLSX): the validation refuses them (`cellIsDate`). */
  dateCells?: PayoutField[];
};

export type PayoutColumn = {
  field: PayoutField;
  /** The header written in the template (pt-BR, snake case). */
  header: string;
  required: boolean;
  /** Other headers people write for this column (pt-BR variants and English); matched loosely, see `headerKey`. */
  aliases: readonly string[];
};

/** The template's columns, in the template's order. */
export const PAYOUT_COLUMNS = [
  {
    field: "pixKey",
    header: "chave_pix",
    required: true,
    aliases: ["chave", "chave pix", "pix", "chave do recebedor", "chave pix do recebedor", "chave de destino", "pix key", "key"],
  },
  {
    field: "pixKeyType",
    header: "tipo_chave",
    required: false,
    aliases: [
      "tipo",
      "tipo de chave",
      "tipo da chave",
      "tipo chave pix",
      "tipo de chave pix",
      "tipo da chave pix",
      "key type",
      "pix key type",
      "type",
    ],
  },
  {
    field: "amount",
    header: "valor",
    required: true,
    aliases: [
      "valor r$",
      "valor em reais",
      "valor a pagar",
      "valor do pagamento",
      "valor da transferencia",
      "valor do pix",
      "quantia",
      "amount",
      "value",
    ],
  },
  {
    field: "name",
    header: "nome",
    required: true,
    aliases: [
      "nome do recebedor",
      "recebedor",
      "nome do favorecido",
      "favorecido",
      "nome do beneficiario",
      "beneficiario",
      "nome do titular",
      "titular",
      "nome completo",
      "razao social",
      "nome ou razao social",
      "nome/razao social",
      "name",
      "receiver",
      "receiver name",
      "owner name",
      "full name",
    ],
  },
  {
    field: "document",
    header: "documento",
    required: true,
    aliases: [
      "cpf/cnpj",
      "cpf ou cnpj",
      "cnpj/cpf",
      "cpf",
      "cnpj",
      "documento do recebedor",
      "documento do titular",
      "documento do favorecido",
      "cpf/cnpj do recebedor",
      "document",
      "document number",
      "tax id",
    ],
  },
  {
    field: "description",
    header: "descricao",
    required: false,
    aliases: ["descrição", "mensagem", "observacao", "observacoes", "obs", "description", "message", "memo"],
  },
  {
    field: "reference",
    header: "identificador",
    required: false,
    aliases: ["id", "referencia", "seu identificador", "codigo", "identificador externo", "identifier", "reference", "external id", "ref"],
  },
] as const satisfies readonly PayoutColumn[];

export type PayoutColumnHeader = (typeof PAYOUT_COLUMNS)[number]["header"];

export const PAYOUT_HEADERS: readonly PayoutColumnHeader[] = PAYOUT_COLUMNS.map((column) => column.header);
export const REQUIRED_COLUMNS: readonly PayoutColumn[] = PAYOUT_COLUMNS.filter((column) => column.required);

export const EMPTY_CELLS: Readonly<PayoutCells> = Object.freeze({
  pixKey: "",
  pixKeyType: "",
  amount: "",
  name: "",
  document: "",
  description: "",
  reference: "",
});

/**
 * What a header is compared by: accents, case, spaces, punctuation and a trailing note in
 * parentheses ignored ("Valor (R$)" → "valor", "Nome do Recebedor" → "nomedorecebedor",
 * "CPF/CNPJ" → "cpfcnpj", "chave_pix*" → "chavepix").
 */
export function headerKey(text: string): string {
  const plain = stripAccents(String(text)).toLowerCase();
  const withoutNote = plain.replace(/\([^)]*\)\s*$/, "");
  const key = withoutNote.replace(/[^a-z0-9]+/g, "");
  return key || plain.replace(/[^a-z0-9]+/g, "");
}

const FIELD_BY_HEADER: ReadonlyMap<string, PayoutField> = (() => {
  const map = new Map<string, PayoutField>();
  for (const column of PAYOUT_COLUMNS) {
    for (const text of [column.header, column.field, ...column.aliases]) {
      const key = headerKey(text);
      if (map.has(key) && map.get(key) !== column.field) throw new Error(`header alias "${text}" is claimed by two columns`);
      map.set(key, column.field);
    }
  }
  return map;
})();

/** The column a header names, or null for a column the batch does not use. */
export function fieldForHeader(text: string): PayoutField | null {
  return FIELD_BY_HEADER.get(headerKey(text)) ?? null;
}

export function columnOf(field: PayoutField): PayoutColumn {
  return PAYOUT_COLUMNS.find((column) => column.field === field) as PayoutColumn;
}

/**
 * Which column each header cell is (index → field): the first header naming a column wins, a
 * later one naming it again is ignored like an unknown column.
 */
export function mapHeader(headers: readonly string[]): { fields: Map<number, PayoutField>; ignored: string[]; missing: PayoutColumn[] } {
  const fields = new Map<number, PayoutField>();
  const taken = new Set<PayoutField>();
  const ignored: string[] = [];
  headers.forEach((text, index) => {
    const header = String(text ?? "").trim();
    if (!header) return;
    const field = fieldForHeader(header);
    if (field && !taken.has(field)) {
      taken.add(field);
      fields.set(index, field);
    } else {
      ignored.push(header);
    }
  });
  const missing = REQUIRED_COLUMNS.filter((column) => !taken.has(column.field));
  return { fields, ignored, missing };
}

/**
 * Pix key types as people write them in the `tipo_chave` column → the gateway's names.
 * Compared by `headerKey` ("E-mail" → "email", "Aleatória" → "aleatoria").
 */
const KEY_TYPE_WORDS: ReadonlyMap<string, "cpf" | "cnpj" | "email" | "phone" | "random"> = new Map([
  ["cpf", "cpf"],
  ["cnpj", "cnpj"],
  ["email", "email"],
  ["mail", "email"],
  ["phone", "phone"],
  ["celular", "phone"],
  ["cel", "phone"],
  ["telefone", "phone"],
  ["telefonecelular", "phone"],
  ["fone", "phone"],
  ["tel", "phone"],
  ["mobile", "phone"],
  ["random", "random"],
  ["aleatoria", "random"],
  ["chavealeatoria", "random"],
  ["evp", "random"],
  ["uuid", "random"],
]);

/** The Pix key type a `tipo_chave` cell names; null when it names none (an empty cell is not this function's business). */
export function keyTypeFromWord(text: string): "cpf" | "cnpj" | "email" | "phone" | "random" | null {
  return KEY_TYPE_WORDS.get(headerKey(text)) ?? null;
}
