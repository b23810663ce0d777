import { z } from "zod";
import { isValidCnpj, isValidCpf, onlyDigits, normalizeCnpj, validatePixKey } from "@/lib/br";
import { zMoney } from "@/lib/br/zod";
import { OWNER_DOCUMENT_TYPES, TRANSFER_PIX_KEY_TYPES, ownerNameAsSent } from "./form-options";

const freeType = z.string().trim().max(40, { error: "transfers.errors.typeTooLong" }).optional();

const transferFields = z.object({
  identifier: z.string().trim().min(1, { error: "errors.required" }).max(100),
  amount: zMoney,
  discountFeeOfReceiver: z.boolean(),
  pixKeyType: z.enum(TRANSFER_PIX_KEY_TYPES, { error: "br.errors.pixKeyTypeInvalid" }),
  pixKeyTypeOther: freeType,
  pixKey: z.string().max(140),
  ownerName: z.string().max(120),
  ownerDocumentType: z.enum(OWNER_DOCUMENT_TYPES, { error: "errors.required" }),
  ownerDocumentTypeOther: freeType,
  ownerDocumentNumber: z.string().max(40),
});
type TransferFields = z.output<typeof transferFields>;
type FieldIssue = { path: keyof TransferFields; message: string };

/**
 * The checks that span fields (the key against its type, the document against its kind) and what
 * is sent. They read the values defensively: they also run when a field of the object is already
 * wrong, so one submit names every missing or wrong field at once.
 */
function resolveTransfer(values: Partial<TransferFields>) {
  const issues: FieldIssue[] = [];
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const keyType = values.pixKeyType === "other" ? text(values.pixKeyTypeOther).trim().toLowerCase() : text(values.pixKeyType);
  if (values.pixKeyType === "other" && !keyType) issues.push({ path: "pixKeyTypeOther", message: "errors.required" });
  const key = keyType ? validatePixKey(keyType, text(values.pixKey)) : null;
  if (key && !key.ok) issues.push({ path: "pixKey", message: key.error });

  const name = ownerNameAsSent(text(values.ownerName));
  if (!name) issues.push({ path: "ownerName", message: "errors.required" });

  const documentType =
    values.ownerDocumentType === "other" ? text(values.ownerDocumentTypeOther).trim().toLowerCase() : text(values.ownerDocumentType);
  if (values.ownerDocumentType === "other" && !documentType) issues.push({ path: "ownerDocumentTypeOther", message: "errors.required" });
  const rawNumber = text(values.ownerDocumentNumber).trim();
  let documentNumber = rawNumber;
  if (!rawNumber) issues.push({ path: "ownerDocumentNumber", message: "errors.required" });
  else if (documentType === "cpf") {
    if (!isValidCpf(rawNumber)) issues.push({ path: "ownerDocumentNumber", message: "br.errors.cpfInvalid" });
    documentNumber = onlyDigits(rawNumber);
  } else if (documentType === "cnpj") {
    if (!isValidCnpj(rawNumber)) issues.push({ path: "ownerDocumentNumber", message: "br.errors.cnpjInvalid" });
    documentNumber = normalizeCnpj(rawNumber);
  }
  return {
    issues,
    pix: { type: keyType, key: key?.ok ? key.key : text(values.pixKey).trim() },
    owner: { name, document: { type: documentType, number: documentNumber } },
  };
}

export const transferFormSchema = transferFields
  .superRefine(
    (values, ctx) => {
      for (const issue of resolveTransfer(values).issues) ctx.addIssue({ code: "custom", path: [issue.path], message: issue.message });
    },
    // Also when a field above failed: every issue surfaces in one submit, not in two rounds.
    { when: () => true },
  )
  .transform((values) => {
    const { pix, owner } = resolveTransfer(values);
    return {
      identifier: values.identifier,
      amount: values.amount,
      discountFeeOfReceiver: values.discountFeeOfReceiver,
      pix,
      owner,
    };
  });

export type TransferFormValues = z.input<typeof transferFormSchema>;
export type TransferInput = z.output<typeof transferFormSchema>;

/** The second confirmation: the same form values plus the user's password (and app code, for users with one). */
export const submitTransferSchema = z.object({
  transfer: transferFormSchema,
  password: z.string().min(1, { error: "transfers.errors.passwordRequired" }).max(200),
  code: z.string().trim().max(32).optional(),
});

export const transferSettingsSchema = z.object({
  /** Empty = no limit. */
  dailyLimit: z.preprocess((value) => (value === "" || value === null ? undefined : value), zMoney.optional()),
});
export type TransferSettingsValues = z.input<typeof transferSettingsSchema>;
