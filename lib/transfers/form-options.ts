import { PIX_KEY_TYPES, toPrintableAscii } from "@/lib/br";

// The transfer form's choices, without zod (the browser loads the form's schema when it is first used).

/** Pix key types offered in the form; "other" lets the user type any type the gateway accepts. */
export const TRANSFER_PIX_KEY_TYPES = [...PIX_KEY_TYPES, "other"] as const;
export const OWNER_DOCUMENT_TYPES = ["cpf", "cnpj", "other"] as const;

/** The owner name as it will be sent: accents removed, printable ASCII only. */
export function ownerNameAsSent(name: string): string {
  return toPrintableAscii(name);
}
