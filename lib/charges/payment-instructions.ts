/**
 * What the customer needs to pay a charge (the Pix code, the boleto's line, the crypto address),
 * from whichever gateway answer holds it. The creation answer carries it; when that answer was
 * lost (an unknown outcome settled by a lookup) the latest lookup record may: the interface's
 * record has `pixInformation.qrCode` (and `image`), and `boletoInformation`, whose fields the
 * interface does not list (read here under the creation answer's names). A crypto address in a
 * record's `details.crypto` is read the same way, where a gateway reports one.
 */
type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** `creation`: the creation answer; `lookup`: the latest lookup record stored for the charge. */
export type InstructionsSource = "creation" | "lookup";

export type PixInstructions = {
  method: "pix";
  source: InstructionsSource;
  code: string;
  imageUrl?: string;
  expiresAt?: string;
  receiptUrl?: string;
  orderUrl?: string;
};
export type BoletoInstructions = {
  method: "boleto";
  source: InstructionsSource;
  digitableLine?: string;
  barcode?: string;
  pdfUrl?: string;
  dueDate?: string;
  orderUrl?: string;
};
export type CryptoInstructions = {
  method: "crypto";
  source: InstructionsSource;
  address: string;
  amount?: number;
  currency?: string;
  network?: string;
  expiresAt?: string;
  orderUrl?: string;
};
export type PaymentInstructions = PixInstructions | BoletoInstructions | CryptoInstructions;

function pixFrom(answer: Json, source: InstructionsSource): PixInstructions | null {
  if (source === "creation") {
    const pix = obj(answer.pix);
    // "The QR Code is rendered from the `code` field (or a `qrCode` field where an endpoint returns one)."
    const code = str(pix.code) ?? str(pix.qrCode) ?? str(answer.qrCode);
    if (!code) return null;
    const order = obj(answer.order);
    return {
      method: "pix",
      source,
      code,
      imageUrl: str(pix.image),
      expiresAt: str(pix.expiresAt),
      receiptUrl: str(order.receiptUrl),
      orderUrl: str(order.url),
    };
  }
  const pix = obj(answer.pixInformation);
  const code = str(pix.qrCode) ?? str(pix.code);
  return code ? { method: "pix", source, code, imageUrl: str(pix.image), expiresAt: str(pix.expiresAt) } : null;
}

function boletoFrom(answer: Json, source: InstructionsSource): BoletoInstructions | null {
  const boleto = obj(source === "creation" ? answer.boleto : answer.boletoInformation);
  const digitableLine = str(boleto.digitableLine);
  const barcode = str(boleto.barcode);
  if (!digitableLine && !barcode) return null;
  return {
    method: "boleto",
    source,
    digitableLine,
    barcode,
    pdfUrl: str(boleto.pdfUrl),
    dueDate: str(boleto.dueDate),
    orderUrl: str(obj(answer.order).url),
  };
}

function cryptoFrom(answer: Json, source: InstructionsSource): CryptoInstructions | null {
  const crypto = obj(source === "creation" ? answer.crypto : obj(answer.details).crypto);
  const address = str(crypto.address);
  if (!address) return null;
  return {
    method: "crypto",
    source,
    address,
    amount: num(crypto.amount),
    currency: str(crypto.currency),
    network: str(crypto.network),
    expiresAt: str(crypto.expiresAt),
    orderUrl: str(obj(answer.order).url),
  };
}

const BY_KIND: Record<string, (answer: Json, source: InstructionsSource) => PaymentInstructions | null> = {
  pix_charge: pixFrom,
  pix_deposit: pixFrom,
  boleto_charge: boletoFrom,
  crypto_charge: cryptoFrom,
};

/**
 * The payment instructions of a one-off charge or deposit: from its creation answer, else from
 * the latest lookup record stored (`gatewayRecord`); null when neither holds them (or the kind has
 * none: a card charge, a subscription, whose first charge has its own).
 */
export function paymentInstructions(kind: string, creationAnswer: unknown, lookupRecord: unknown): PaymentInstructions | null {
  const pick = BY_KIND[kind];
  if (!pick) return null;
  return pick(obj(creationAnswer), "creation") ?? pick(obj(lookupRecord), "lookup");
}

/** Where a creation answer or a lookup record carries something the customer pays with. */
const CODE_PATHS: readonly (readonly string[])[] = [
  ["qrCode"],
  ["pix", "code"],
  ["pix", "qrCode"],
  ["pix", "image"],
  ["pixInformation", "qrCode"],
  ["pixInformation", "code"],
  ["pixInformation", "image"],
  ["boleto", "digitableLine"],
  ["boleto", "barcode"],
  ["boleto", "pdfUrl"],
  ["boletoInformation", "digitableLine"],
  ["boletoInformation", "barcode"],
  ["boletoInformation", "pdfUrl"],
  ["crypto", "address"],
  ["details", "crypto", "address"],
];

/**
 * A gateway answer shown as it is (raw JSON) once its charge can no longer be paid: the same
 * answer without its codes to pay, so no page hands a customer a code for a closed charge.
 */
export function withoutPaymentCodes<T>(answer: T): T {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return answer;
  const copy = structuredClone(answer) as Json;
  for (const path of CODE_PATHS) {
    let holder: Json | null = copy;
    for (const key of path.slice(0, -1)) {
      const next: unknown = holder?.[key];
      holder = next && typeof next === "object" && !Array.isArray(next) ? (next as Json) : null;
    }
    if (holder) delete holder[path[path.length - 1]];
  }
  return copy as T;
}
