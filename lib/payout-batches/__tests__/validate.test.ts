import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cpfCheckDigits, DDDS, formatCpf, formatMoneyInput, fromCents, isValidCpf, onlyDigits } from "@/lib/br";
import { zMoney } from "@/lib/br/zod";
import { transferFormSchema } from "@/lib/transfers/schemas";
import type { PayoutCells } from "@/lib/payout-batches/columns";
import {
  MAX_AMOUNT_CENTS,
  ROW_PROBLEM_CODES,
  batchTotals,
  dailyLimitProblem,
  findFileDuplicates,
  readAmount,
  recentDuplicateWarnings,
  validatePayoutRow,
  validatePayoutRows,
} from "@/lib/payout-batches/validate";

const GOOD: PayoutCells = {
  pixKey: "fulano@example.com",
  pixKeyType: "",
  amount: "10,00",
  name: "Fulano de Tal",
  document: "529.982.247-25",
  description: "",
  reference: "",
};
const cellsWith = (over: Partial<PayoutCells>): PayoutCells => ({ ...GOOD, ...over });
const codesOf = (over: Partial<PayoutCells>) => validatePayoutRow(cellsWith(over)).problems.map((problem) => problem.code);
const valueOf = (over: Partial<PayoutCells>) => validatePayoutRow(cellsWith(over)).value;
const rowsFrom = (list: Array<Partial<PayoutCells>>) => list.map((over, index) => ({ line: index + 2, cells: cellsWith(over) }));

/** An 11-digit number that is both a valid CPF and a valid mobile number, (11) 9xxxx-xxxx. */
const CPF_AND_PHONE = `119876543${cpfCheckDigits("119876543")}`;

describe("validatePayoutRow: the Pix key", () => {
  it("accepts a valid row and sends every value as the transfer form does", () => {
    const check = validatePayoutRow(cellsWith({ name: "  José  Ñoño Conceição ", description: "Comissão", reference: "r-1" }));
    expect(check.problems).toEqual([]);
    expect(check.value).toEqual({
      pixKeyType: "email",
      pixKey: "fulano@example.com",
      amountCents: 1000,
      ownerName: "Jose Nono Conceicao",
      ownerDocumentType: "cpf",
      ownerDocumentNumber: "52998224725",
      description: "Comissão",
      reference: "r-1",
    });
  });

  it("infers the key type when tipo_chave is empty", () => {
    const cases: Array<[string, string, string]> = [
      ["529.982.247-25", "cpf", "52998224725"],
      ["52998224725", "cpf", "52998224725"],
      ["11.222.333/0001-81", "cnpj", "11222333000181"],
      ["11222333000181", "cnpj", "11222333000181"],
      ["12.abc.345/01de-35", "cnpj", "12ABC34501DE35"],
      ["Fulano@Example.COM", "email", "fulano@example.com"],
      ["(11) 98765-4321", "phone", "+5511987654321"],
      ["+55 11 98765-4321", "phone", "+5511987654321"],
      ["+5511987654321", "phone", "+5511987654321"],
      ["11 98765-4321", "phone", "+5511987654321"],
      ["(11) 3333-4444", "phone", "+551133334444"],
      ["123E4567-E89B-12D3-A456-426655440000", "random", "123e4567-e89b-12d3-a456-426655440000"],
    ];
    for (const [pixKey, type, key] of cases) {
      expect(valueOf({ pixKey }), pixKey).toMatchObject({ pixKeyType: type, pixKey: key });
    }
  });

  it("takes the stated type, in English or pt-BR words", () => {
    const cases: Array<[string, string, string]> = [
      ["CPF", "529.982.247-25", "52998224725"],
      ["cnpj", "11.222.333/0001-81", "11222333000181"],
      ["e-mail", "ANA@X.COM", "ana@x.com"],
      ["celular", "(21) 99876-5432", "+5521998765432"],
      ["Telefone", "21998765432", "+5521998765432"],
      ["phone", CPF_AND_PHONE, `+55${CPF_AND_PHONE}`],
      ["cpf", CPF_AND_PHONE, CPF_AND_PHONE],
      ["aleatória", "123e4567-e89b-12d3-a456-426655440000", "123e4567-e89b-12d3-a456-426655440000"],
      ["EVP", "123e4567-e89b-12d3-a456-426655440000", "123e4567-e89b-12d3-a456-426655440000"],
    ];
    for (const [pixKeyType, pixKey, key] of cases) expect(valueOf({ pixKeyType, pixKey })?.pixKey, `${pixKeyType} ${pixKey}`).toBe(key);
  });

  it("refuses a missing key, an unknown type, a key of another type, an 11-digit number that could be a CPF or a phone", () => {
    expect(validatePayoutRow(cellsWith({ pixKey: "" })).problems).toEqual([{ code: "pixKeyRequired", field: "pixKey", severity: "error" }]);
    expect(codesOf({ pixKeyType: "boleto" })).toEqual(["keyTypeUnknown"]);
    expect(codesOf({ pixKeyType: "boleto", pixKey: "" })).toEqual(["keyTypeUnknown", "pixKeyRequired"]);
    expect(validatePayoutRow(cellsWith({ pixKeyType: "cpf", pixKey: "ana@x.com" })).problems).toEqual([
      { code: "keyTypeMismatch", field: "pixKeyType", severity: "error" },
    ]);
    expect(codesOf({ pixKeyType: "email", pixKey: "529.982.247-25" })).toEqual(["keyTypeMismatch"]);
    expect(codesOf({ pixKeyType: "celular", pixKey: "52998224725" })).toEqual(["keyTypeMismatch"]);
    expect(codesOf({ pixKeyType: "cpf", pixKey: "+55 11 98765-4321" })).toEqual(["keyTypeMismatch"]);
    expect(codesOf({ pixKey: CPF_AND_PHONE })).toEqual(["keyTypeAmbiguous"]);
    // The receiver's own CPF is a CPF key: a CPF key belongs to its holder.
    expect(validatePayoutRow(cellsWith({ pixKey: CPF_AND_PHONE, document: formatCpf(CPF_AND_PHONE) }))).toMatchObject({
      value: { pixKeyType: "cpf", pixKey: CPF_AND_PHONE },
      problems: [],
    });
    expect(valueOf({ pixKey: `+55${CPF_AND_PHONE}` })?.pixKeyType).toBe("phone");
    expect(valueOf({ pixKey: formatCpf(CPF_AND_PHONE) })?.pixKeyType).toBe("cpf");
  });

  it("warns, without refusing, when a CPF or CNPJ key is not the receiver's document", () => {
    const check = validatePayoutRow(cellsWith({ pixKey: "123.456.789-09", document: "529.982.247-25" }));
    expect(check.problems).toEqual([{ code: "keyNotReceiverDocument", field: "pixKey", severity: "warning" }]);
    expect(check.value).toMatchObject({ pixKey: "12345678909", ownerDocumentNumber: "52998224725" });
    expect(codesOf({ pixKey: "11.222.333/0001-81", document: "11222333000181" })).toEqual([]);
    expect(codesOf({ pixKey: "11.222.333/0001-81", document: "12.ABC.345/01DE-35" })).toEqual(["keyNotReceiverDocument"]);
    const rows = validatePayoutRows(rowsFrom([{ pixKey: "123.456.789-09" }, { pixKey: "a@x.com", amount: "" }]));
    expect(batchTotals(rows)).toEqual({ rows: 2, valid: 1, withErrors: 1, withWarnings: 1, totalCents: 1000 });
  });

  it("says what is wrong with an invalid key, stated or inferred", () => {
    const longEmail = `${"a".repeat(70)}@example.com`;
    const cases: Array<[string, string, string]> = [
      ["cpf", "123.456.789-00", "pixKeyCpfInvalid"],
      ["", "123.456.789-00", "pixKeyCpfInvalid"],
      ["cnpj", "11.222.333/0001-82", "pixKeyCnpjInvalid"],
      ["", "11.222.333/0001-82", "pixKeyCnpjInvalid"],
      ["email", "fulano@", "pixKeyEmailInvalid"],
      ["", "fulano@", "pixKeyEmailInvalid"],
      ["", longEmail, "pixKeyEmailTooLong"],
      ["celular", "(10) 98765-4321", "pixKeyPhoneInvalid"],
      ["", "(10) 98765-4321", "pixKeyPhoneInvalid"],
      ["", "+1 555 0100", "pixKeyPhoneInvalid"],
      ["random", "123", "pixKeyRandomInvalid"],
      ["", "123e4567-e89b-12d3-a456-42665544000z", "pixKeyRandomInvalid"],
      ["", "banana", "pixKeyUnrecognized"],
      ["", "12345", "pixKeyUnrecognized"],
    ];
    for (const [pixKeyType, pixKey, code] of cases) expect(codesOf({ pixKeyType, pixKey }), `${pixKeyType} ${pixKey}`).toEqual([code]);
  });
});

describe("validatePayoutRow: amount, name, document, description, reference", () => {
  it("reads amounts as written in Brazil", () => {
    const cases: Array<[string, number]> = [
      ["1.234,56", 123456],
      ["R$ 1.234,56", 123456],
      ["R$1.234,56", 123456],
      ["1234,56", 123456],
      ["1234.56", 123456],
      ["1.234", 123400],
      ["10", 1000],
      ["10,5", 1050],
      ["0,01", 1],
      ["1 234,56", 123456],
      ["1,234.56", 123456],
      ["1.234.567,89", 123456789],
      ["99.999.999,99", MAX_AMOUNT_CENTS],
    ];
    for (const [amount, cents] of cases) expect(valueOf({ amount })?.amountCents, amount).toBe(cents);
  });

  it("says why an amount is refused", () => {
    const cases: Array<[string, string]> = [
      ["", "amountRequired"],
      ["0", "amountNotPositive"],
      ["0,00", "amountNotPositive"],
      ["-10", "amountNotPositive"],
      ["-R$ 10,00", "amountNotPositive"],
      ["R$ -10", "amountNotPositive"],
      ["(10,00)", "amountNotPositive"],
      ["10,001", "amountTooManyDecimals"],
      ["1,234", "amountTooManyDecimals"],
      ["10,500", "amountTooManyDecimals"],
      ["1.234,567", "amountTooManyDecimals"],
      ["1234.567", "amountTooManyDecimals"],
      ["12.3456", "amountTooManyDecimals"],
      ["0,999", "amountTooManyDecimals"],
      ["abc", "amountInvalid"],
      ["10 reais", "amountInvalid"],
      ["1.2.3", "amountInvalid"],
      ["1e3", "amountInvalid"],
      ["US$ 10", "amountInvalid"],
      ["R$", "amountInvalid"],
      ["10,5,0", "amountInvalid"],
      ["100.000.000,00", "amountTooLarge"],
    ];
    for (const [amount, code] of cases) {
      expect(validatePayoutRow(cellsWith({ amount })).problems, amount).toEqual([{ code, field: "amount", severity: "error" }]);
    }
  });

  it("requires a name that survives as it is sent, within the form's length", () => {
    expect(codesOf({ name: "" })).toEqual(["nameRequired"]);
    expect(codesOf({ name: "日本語" })).toEqual(["nameRequired"]); // nothing printable left to send
    expect(codesOf({ name: "a".repeat(120) })).toEqual([]);
    expect(codesOf({ name: "a".repeat(121) })).toEqual(["nameTooLong"]);
  });

  it("requires the receiver's CPF or CNPJ (alphanumeric too) with valid check digits", () => {
    expect(codesOf({ document: "" })).toEqual(["documentRequired"]);
    expect(codesOf({ document: "123.456.789-00" })).toEqual(["cpfInvalid"]);
    expect(codesOf({ document: "111.111.111-11" })).toEqual(["cpfInvalid"]);
    expect(codesOf({ document: "11.222.333/0001-82" })).toEqual(["cnpjInvalid"]);
    expect(codesOf({ document: "12.ABC.345/01DE-36" })).toEqual(["cnpjInvalid"]);
    expect(codesOf({ document: "1234" })).toEqual(["documentInvalid"]);
    expect(codesOf({ document: "2345678992" })).toEqual(["documentInvalid"]); // a CPF that lost its leading zero
    expect(valueOf({ document: "12.abc.345/01de-35" })).toMatchObject({ ownerDocumentType: "cnpj", ownerDocumentNumber: "12ABC34501DE35" });
    expect(valueOf({ document: "11222333000181" })).toMatchObject({ ownerDocumentType: "cnpj", ownerDocumentNumber: "11222333000181" });
    expect(valueOf({ document: "529 982 247 25" })).toMatchObject({ ownerDocumentType: "cpf", ownerDocumentNumber: "52998224725" });
  });

  it("limits the description to 140 characters and the identifier to 100", () => {
    expect(codesOf({ description: "é".repeat(140), reference: "😀".repeat(100) })).toEqual([]);
    expect(codesOf({ description: "x".repeat(141) })).toEqual(["descriptionTooLong"]);
    expect(codesOf({ reference: "x".repeat(101) })).toEqual(["referenceTooLong"]);
  });

  it("refuses dates and formula errors in a cell, once, without more noise on that cell", () => {
    expect(validatePayoutRow(cellsWith({ name: "#N/A" })).problems).toEqual([{ code: "cellIsError", field: "name", severity: "error" }]);
    expect(codesOf({ amount: "#VALUE!", document: "#REF!" })).toEqual(["cellIsError", "cellIsError"]);
    const dated = validatePayoutRow(cellsWith({ reference: "01/03/2025" }), ["reference"]);
    expect(dated).toEqual({ value: null, problems: [{ code: "cellIsDate", field: "reference", severity: "error" }] });
  });

  it("reports every problem of a row, each at its field, and gives no value", () => {
    const check = validatePayoutRow({
      pixKey: "",
      pixKeyType: "",
      amount: "1,001",
      name: "",
      document: "123",
      description: "",
      reference: "",
    });
    expect(check.value).toBeNull();
    expect(check.problems.map((problem) => [problem.code, problem.field])).toEqual([
      ["pixKeyRequired", "pixKey"],
      ["amountTooManyDecimals", "amount"],
      ["nameRequired", "name"],
      ["documentInvalid", "document"],
    ]);
  });
});

describe("rows across the file", () => {
  it("flags the second and later rows with the same key and amount, however they are written", () => {
    const rows = rowsFrom([
      { pixKey: "(11) 98765-4321", amount: "10" },
      { pixKey: "+5511987654321", amount: "10,00" },
      { pixKey: "11987654321", pixKeyType: "celular", amount: "R$ 10" },
      { pixKey: "(11) 98765-4321", amount: "10,01" },
      { pixKey: "ANA@X.COM", amount: "5" },
      { pixKey: "ana@x.com", amount: "5", document: "" },
    ]);
    const validated = validatePayoutRows(rows);
    expect(validated.map((row) => row.problems.map((problem) => problem.code))).toEqual([
      [],
      ["duplicateInFile"],
      ["duplicateInFile"],
      [],
      [],
      ["documentRequired", "duplicateInFile"],
    ]);
    expect(validated[1].value).toBeNull();
    expect(findFileDuplicates(rows)).toEqual([
      { line: 3, firstLine: 2, code: "duplicateInFile", field: null },
      { line: 4, firstLine: 2, code: "duplicateInFile", field: null },
      { line: 7, firstLine: 6, code: "duplicateInFile", field: null },
    ]);
  });

  it("flags a repeated identificador", () => {
    const rows = rowsFrom([
      { pixKey: "a@x.com", reference: "r-1" },
      { pixKey: "b@x.com", reference: "r-2" },
      { pixKey: "c@x.com", reference: "r-1" },
    ]);
    expect(validatePayoutRows(rows)[2].problems).toEqual([{ code: "duplicateReference", field: "reference", severity: "error" }]);
    expect(findFileDuplicates(rows)).toEqual([{ line: 4, firstLine: 2, code: "duplicateReference", field: "reference" }]);
  });

  it("warns about a transfer to the same key and amount in the last 24 hours, without blocking the row", () => {
    const validated = validatePayoutRows(rowsFrom([{ pixKey: "(11) 98765-4321" }, { pixKey: "a@x.com" }, { pixKey: "b@x.com", name: "" }]));
    const recent = [
      { pixKey: "+5511987654321", amountCents: 1000 },
      { pixKey: "A@X.COM", amountCents: 999 },
      { pixKey: "b@x.com", amountCents: 1000 },
    ];
    const warned = recentDuplicateWarnings(validated, recent);
    expect(warned[0].problems).toEqual([{ code: "recentTransfer", field: null, severity: "warning" }]);
    expect(warned[0].value).not.toBeNull();
    expect(warned[1].problems).toEqual([]);
    expect(warned[2].problems.map((problem) => problem.code)).toEqual(["nameRequired"]);
    expect(recentDuplicateWarnings(warned, recent)).toEqual(warned);
    expect(validated[0].problems).toEqual([]); // not mutated
  });

  it("totals the valid rows and counts errors and warnings", () => {
    const validated = recentDuplicateWarnings(
      validatePayoutRows(
        rowsFrom([
          { pixKey: "a@x.com", amount: "1.000,00" },
          { pixKey: "b@x.com", amount: "0,50" },
          { pixKey: "c@x.com", amount: "x" },
        ]),
      ),
      [{ pixKey: "b@x.com", amountCents: 50 }],
    );
    expect(batchTotals(validated)).toEqual({ rows: 3, valid: 2, withErrors: 1, withWarnings: 1, totalCents: 100050 });
    expect(batchTotals([])).toEqual({ rows: 0, valid: 0, withErrors: 0, withWarnings: 0, totalCents: 0 });
  });

  it("compares the batch with what is left of the daily limit", () => {
    expect(dailyLimitProblem({ totalCents: 10_000, dailyLimitCents: null, usedTodayCents: 0 })).toBeNull();
    expect(dailyLimitProblem({ totalCents: 10_000, dailyLimitCents: 50_000, usedTodayCents: 40_000 })).toBeNull();
    expect(dailyLimitProblem({ totalCents: 10_001, dailyLimitCents: 50_000, usedTodayCents: 40_000 })).toEqual({
      code: "dailyLimitExceeded",
      limitCents: 50_000,
      usedTodayCents: 40_000,
      availableCents: 10_000,
    });
    expect(dailyLimitProblem({ totalCents: 1, dailyLimitCents: 50_000, usedTodayCents: 60_000 })).toMatchObject({ availableCents: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
const validCpf = digits(9, 9)
  .filter((base) => !/^(\d)\1{8}$/.test(base))
  .map((base) => base + cpfCheckDigits(base));
const mobile = fc.tuple(fc.constantFrom(...DDDS), digits(8, 8)).map(([ddd, rest]) => ({ ddd, number: `9${rest}` }));

describe("properties", () => {
  it("accepts any valid CPF, formatted or not, as the document and as a key", () => {
    fc.assert(
      fc.property(validCpf, fc.boolean(), (cpf, formatted) => {
        const text = formatted ? formatCpf(cpf) : cpf;
        expect(valueOf({ document: text })).toMatchObject({ ownerDocumentType: "cpf", ownerDocumentNumber: cpf });
        expect(valueOf({ pixKeyType: "cpf", pixKey: text })).toMatchObject({ pixKeyType: "cpf", pixKey: cpf });
        const inferred = validatePayoutRow(cellsWith({ pixKey: text }));
        if (inferred.value) expect(inferred.value).toMatchObject({ pixKeyType: "cpf", pixKey: cpf });
        else expect(!formatted && inferred.problems.map((problem) => problem.code)).toEqual(["keyTypeAmbiguous"]);
        // The receiver's own CPF as the key: always a CPF key, never ambiguous.
        const own = validatePayoutRow(cellsWith({ pixKey: text, document: formatted ? cpf : formatCpf(cpf) }));
        expect(own).toEqual({ value: expect.objectContaining({ pixKeyType: "cpf", pixKey: cpf }), problems: [] });
      }),
    );
  });

  it("reads back any amount in cents written the Brazilian way", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }),
        fc.constantFrom("", "R$ ", "R$"),
        fc.boolean(),
        (cents, prefix, grouped) => {
          const written = formatMoneyInput(fromCents(cents));
          expect(written).toMatch(/^\d{1,3}(\.\d{3})*,\d{2}$/);
          const text = prefix + (grouped ? written : written.replace(/\./g, ""));
          expect(readAmount(text)).toEqual({ ok: true, cents });
        },
      ),
    );
  });

  it("refuses any amount with three or more decimals", () => {
    const integer = fc.integer({ min: 0, max: 99_999_999 });
    const decimals = digits(3, 6);
    const written = fc.oneof(
      fc.tuple(integer, decimals).map(([n, d]) => `${n},${d}`),
      fc.tuple(integer, decimals).map(([n, d]) => `${formatMoneyInput(n).slice(0, -3)},${d}`),
      fc.tuple(integer, digits(4, 6)).map(([n, d]) => `${n}.${d}`),
      fc.tuple(fc.integer({ min: 1000, max: 99_999_999 }), decimals).map(([n, d]) => `${n}.${d}`),
    );
    fc.assert(
      fc.property(written, fc.constantFrom("", "R$ "), (text, prefix) => {
        expect(readAmount(prefix + text)).toEqual({ ok: false, code: "amountTooManyDecimals" });
      }),
    );
  });

  it("accepts exactly the amounts the transfer form accepts, as the same cents", () => {
    const amountish = fc.string({ unit: fc.constantFrom(..."0123456789.,R$- ()"), maxLength: 16 });
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(amountish, fc.string()), (text) => {
        const ours = readAmount(text);
        const form = zMoney.safeParse(text);
        expect(ours.ok, JSON.stringify(text)).toBe(form.success);
        if (ours.ok) accepted++;
        if (ours.ok && form.success) expect(fromCents(ours.cents)).toBe(form.data);
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(20);
  });

  it("a row repeated k times gives exactly k-1 duplicate errors", () => {
    const others = fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 8 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), others, fc.boolean(), fc.array(fc.nat()), (k, amounts, withReference, order) => {
        const repeated = cellsWith({ pixKey: "(11) 98765-4321", amount: "1.234,56", reference: withReference ? "same" : "" });
        const list: PayoutCells[] = [
          ...amounts.map((n) => cellsWith({ pixKey: `p${n}@x.com` })),
          ...Array.from({ length: k }, () => repeated),
        ];
        // a shuffle driven by the generated numbers
        for (let i = list.length - 1; i > 0; i--) {
          const j = (order[i % Math.max(1, order.length)] ?? 0) % (i + 1);
          [list[i], list[j]] = [list[j], list[i]];
        }
        const validated = validatePayoutRows(list.map((cells, index) => ({ line: index + 2, cells })));
        const count = (code: string) => validated.flatMap((row) => row.problems).filter((problem) => problem.code === code).length;
        expect(count("duplicateInFile")).toBe(k - 1);
        expect(count("duplicateReference")).toBe(withReference ? k - 1 : 0);
        expect(validated.filter((row) => row.value !== null)).toHaveLength(amounts.length + 1);
      }),
    );
  });

  it("removing a phone's formatting never changes its validity nor the key sent", () => {
    const separators = fc.array(fc.constantFrom("", " ", "-", ".", "(", ")"), { minLength: 14, maxLength: 14 });
    fc.assert(
      fc.property(digits(8, 13), separators, (raw, seps) => {
        const formatted = [...raw].map((digit, i) => seps[i] + digit).join("");
        const plain = validatePayoutRow(cellsWith({ pixKeyType: "celular", pixKey: raw }));
        const withFormatting = validatePayoutRow(cellsWith({ pixKeyType: "celular", pixKey: formatted }));
        expect(withFormatting.value?.pixKey ?? null, formatted).toBe(plain.value?.pixKey ?? null);
      }),
    );
    fc.assert(
      fc.property(mobile, fc.constantFrom("(DD) N", "+55 DD N", "+55 (DD) N", "0DD N", "DD N", "+55DDN"), ({ ddd, number }, pattern) => {
        const shown = `${number.slice(0, 5)}-${number.slice(5)}`;
        const formatted = pattern.replace("DD", ddd).replace("N", pattern === "+55DDN" ? number : shown);
        const key = `+55${ddd}${number}`;
        expect(valueOf({ pixKeyType: "celular", pixKey: formatted })?.pixKey).toBe(key);
        expect(valueOf({ pixKeyType: "celular", pixKey: onlyDigits(formatted) })?.pixKey).toBe(key);
        expect(valueOf({ pixKey: formatted })?.pixKey).toBe(key);
        const bare = `${ddd}${number}`;
        if (isValidCpf(bare)) expect(codesOf({ pixKey: bare })).toEqual(["keyTypeAmbiguous"]);
        else expect(valueOf({ pixKey: bare })?.pixKey).toBe(key);
      }),
    );
  });

  it("never throws, whatever is in the cells, and gives a value exactly when there is no error", () => {
    const anyText = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      fc.constantFrom("", " ", "#N/A", "R$", "-", "(", "+55", "@", "0", "null", "undefined", "__proto__", "constructor"),
    );
    const cells = fc.record({
      pixKey: anyText,
      pixKeyType: fc.oneof(anyText, fc.constantFrom("cpf", "cnpj", "email", "celular", "aleatória")),
      amount: anyText,
      name: anyText,
      document: anyText,
      description: anyText,
      reference: anyText,
    });
    fc.assert(
      fc.property(fc.array(cells, { maxLength: 6 }), (list) => {
        const validated = validatePayoutRows(list.map((c, index) => ({ line: index + 2, cells: c })));
        for (const row of validated) {
          const hasError = row.problems.some((problem) => problem.severity === "error");
          expect(row.value === null).toBe(hasError);
          for (const problem of row.problems) expect(ROW_PROBLEM_CODES).toContain(problem.code);
        }
        expect(() => findFileDuplicates(list.map((c, index) => ({ line: index, cells: c })))).not.toThrow();
      }),
    );
  });

  it("a row it accepts passes the single transfer form's schema, with the same key, name and document", () => {
    const row = fc.record({
      key: fc.oneof(
        validCpf.map((cpf) => ({ pixKeyType: "", pixKey: formatCpf(cpf) })),
        validCpf.map((cpf) => ({ pixKeyType: "cpf", pixKey: cpf })),
        mobile.map(({ ddd, number }) => ({ pixKeyType: "", pixKey: `(${ddd}) ${number}` })),
        fc.emailAddress().map((email) => ({ pixKeyType: "", pixKey: email })),
        fc.uuid().map((uuid) => ({ pixKeyType: "aleatoria", pixKey: uuid.toUpperCase() })),
        fc.constantFrom({ pixKeyType: "", pixKey: "12.ABC.345/01DE-35" }, { pixKeyType: "cnpj", pixKey: "11222333000181" }),
      ),
      cents: fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }),
      name: fc.string({ unit: "grapheme", maxLength: 130 }),
      document: fc.oneof(validCpf, fc.constantFrom("11.222.333/0001-81", "12.ABC.345/01DE-35", "123")),
    });
    let accepted = 0;
    fc.assert(
      fc.property(row, ({ key, cents, name, document }) => {
        const cells = cellsWith({ ...key, amount: formatMoneyInput(fromCents(cents)), name, document });
        const { value } = validatePayoutRow(cells);
        if (!value) return;
        accepted++;
        const form = transferFormSchema.safeParse({
          identifier: "lote-1-2",
          amount: fromCents(value.amountCents),
          discountFeeOfReceiver: false,
          pixKeyType: value.pixKeyType,
          pixKey: value.pixKey,
          ownerName: value.ownerName,
          ownerDocumentType: value.ownerDocumentType,
          ownerDocumentNumber: value.ownerDocumentNumber,
        });
        expect(form.success, JSON.stringify(form.error?.issues)).toBe(true);
        if (!form.success) return;
        expect(form.data.pix).toEqual({ type: value.pixKeyType, key: value.pixKey });
        expect(form.data.owner).toEqual({
          name: value.ownerName,
          document: { type: value.ownerDocumentType, number: value.ownerDocumentNumber },
        });
        expect(Math.round(form.data.amount * 100)).toBe(cents);
      }),
      { numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
