import { z } from "zod";
import { isValidCnpj, isValidCpf, onlyDigits, normalizeCnpj, validatePixKey } from "@/lib/br";
import { zMoney } from "@/lib/br/zod";
import { OWNER_DOCUMENT_TYPES, TRANSFER_PIX_KEY_TYPES, ownerNameAsSent } from "./form-options";

const freeType = z.string().trim().max(40, { error: "transfers.errors.typeTooLong" }).optional();

export const transferFormSchema = z
  .object({
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
  })
  .transform((values, ctx) => {
    const keyType = values.pixKeyType === "other" ? (values.pixKeyTypeOther ?? "").trim().toLowerCase() : values.pixKeyType;
    if (!keyType) ctx.addIssue({ code: "custom", path: ["pixKeyTypeOther"], message: "errors.required" });
    const key = validatePixKey(keyType, values.pixKey);
    if (!key.ok) ctx.addIssue({ code: "custom", path: ["pixKey"], message: key.error });

    const name = ownerNameAsSent(values.ownerName);
    if (!name) ctx.addIssue({ code: "custom", path: ["ownerName"], message: "errors.required" });

    const documentType =
      values.ownerDocumentType === "other" ? (values.ownerDocumentTypeOther ?? "").trim().toLowerCase() : values.ownerDocumentType;
    if (!documentType) ctx.addIssue({ code: "custom", path: ["ownerDocumentTypeOther"], message: "errors.required" });
    const rawNumber = values.ownerDocumentNumber.trim();
    let documentNumber = rawNumber;
    if (!rawNumber) ctx.addIssue({ code: "custom", path: ["ownerDocumentNumber"], message: "errors.required" });
    else if (documentType === "cpf") {
      if (!isValidCpf(rawNumber)) ctx.addIssue({ code: "custom", path: ["ownerDocumentNumber"], message: "br.errors.cpfInvalid" });
      documentNumber = onlyDigits(rawNumber);
    } else if (documentType === "cnpj") {
      if (!isValidCnpj(rawNumber)) ctx.addIssue({ code: "custom", path: ["ownerDocumentNumber"], message: "br.errors.cnpjInvalid" });
      documentNumber = normalizeCnpj(rawNumber);
    }

    return {
      identifier: values.identifier,
      amount: values.amount,
      discountFeeOfReceiver: values.discountFeeOfReceiver,
      pix: { type: keyType, key: key.ok ? key.key : values.pixKey.trim() },
      owner: { name, document: { type: documentType, number: documentNumber } },
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
