import { maskCep } from "@/lib/br/masks";
import { formatMoneyInput, parseMoneyInput, toCents } from "@/lib/br/money";
import { formatDocument } from "@/lib/br/document";
import { formatBrPhone } from "@/lib/br/phone";
import { PERIODICITY_TYPES, type PeriodicityType } from "@/lib/gateway/constants";

/*
 * What the charge forms hold and send, without their schemas: the browser loads the zod schemas
 * (lib/charges/schemas.ts) only once someone starts filling a form. What differs by kind is in
 * lib/charges/kinds/.
 */

export const CHARGE_FORM_KINDS = [
  "pix",
  "card",
  "boleto",
  "crypto",
  "deposit",
  "pix-subscription",
  "card-subscription",
  "crypto-subscription",
] as const;
export type ChargeFormKind = (typeof CHARGE_FORM_KINDS)[number];

export function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** What the form holds while typing: every field of every kind, as text (the recurrence's unit is picked from a list). */
export type ChargeFormValues = {
  identifier: string;
  amount: string;
  client: { name: string; email: string; phone: string; document: string };
  address: {
    country: string;
    zipCode: string;
    state: string;
    city: string;
    street: string;
    neighborhood: string;
    number: string;
    complement: string;
  };
  card: { number: string; owner: string; expiresAt: string; cvv: string; statementDescriptor: string };
  installments: string;
  clientIp: string;
  products: { id: string; name: string; quantity: string; price: string; physical: boolean }[];
  shippingFee: string;
  extraFee: string;
  discount: string;
  splits: { producerId: string; amount: string }[];
  metadata: { key: string; value: string }[];
  /** The producer's own "origem" of the sale, sent as `metadata.origem`. */
  origin: string;
  dueDate: string;
  currency: string;
  cryptoCurrency: string;
  network: string;
  product: { id: string; name: string; price: string };
  subscription: { periodicityType: PeriodicityType; periodicity: string; firstChargeIn: string };
};

/** Products total + shipping + extra fee − discount, in centavos; null when there are no products. */
export function expectedTotalCents(values: Pick<ChargeFormValues, "products" | "shippingFee" | "extraFee" | "discount">): number | null {
  if (!values.products.length) return null;
  const money = (v: string) => toCents(parseMoneyInput(v ?? "") ?? 0);
  const products = values.products.reduce((sum, p) => {
    const quantity = Number(p.quantity || 1);
    return sum + money(p.price) * (Number.isFinite(quantity) && quantity > 0 ? quantity : 1);
  }, 0);
  return products + money(values.shippingFee) + money(values.extraFee) - money(values.discount);
}

/** The metadata key the "Origem" field is sent under (lib/gateway/origin.ts reads it into the ledger). */
export const ORIGIN_METADATA_KEY = "origem";

/** Days a moved due date lies ahead when the old charge does not say how long it gave (and at most). */
const DEFAULT_DUE_IN_DAYS = 3;
const MAX_DUE_IN_DAYS = 30;

const DAY_MS = 86_400_000;
const isIsoDate = (value: unknown): value is string =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * A due date for a new charge made from an old one: as many days from today as the old charge
 * gave its customer (from its creation to its due date; 1 to 30), or 3 when that is unknown.
 */
export function movedDueDate(oldDueDate: string, options: { today: string; createdOn: string | null }): string {
  const term = options.createdOn && isIsoDate(options.createdOn) ? dayNumber(oldDueDate) - dayNumber(options.createdOn) : NaN;
  const days = Number.isInteger(term) && term >= 1 ? Math.min(term, MAX_DUE_IN_DAYS) : DEFAULT_DUE_IN_DAYS;
  return addDays(options.today, days);
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const textOf = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");
const moneyOf = (value: unknown): string => (typeof value === "number" && Number.isFinite(value) ? formatMoneyInput(value) : "");
const listOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.map(record).filter((v) => v !== undefined) : [];

/**
 * The form values a new charge starts from when it is made from an old one, read from the old
 * one's request as the ledger stored it: customer, amount, products, fees, splits, metadata,
 * "origem", the crypto currency and network, a subscription's product and recurrence, and a due
 * date moved ahead (movedDueDate). Never its identifier (the form makes a fresh one), its card
 * (the ledger keeps only brand, BIN and last 4, and those are not the card) or its customer's IP.
 * Only what the old request has is returned: the form's defaults fill the rest.
 */
export function formValuesFromRequest(
  request: Record<string, unknown>,
  options: { today: string; createdOn: string | null },
): Partial<ChargeFormValues> {
  const values: Partial<ChargeFormValues> = {};
  if (typeof request.amount === "number") values.amount = moneyOf(request.amount);

  const client = record(request.client);
  if (client) {
    values.client = {
      name: textOf(client.name),
      email: textOf(client.email),
      phone: client.phone ? formatBrPhone(textOf(client.phone)) : "",
      document: client.document ? formatDocument(textOf(client.document)) : "",
    };
    const address = record(client.address);
    if (address) {
      const country = textOf(address.country) || "BR";
      values.address = {
        country,
        zipCode: country === "BR" ? maskCep(textOf(address.zipCode)) : textOf(address.zipCode),
        state: textOf(address.state),
        city: textOf(address.city),
        street: textOf(address.street),
        neighborhood: textOf(address.neighborhood),
        number: textOf(address.number),
        complement: textOf(address.complement),
      };
    }
  }

  if (Array.isArray(request.products)) {
    values.products = listOf(request.products).map((p) => ({
      id: textOf(p.id),
      name: textOf(p.name),
      quantity: typeof p.quantity === "number" ? String(p.quantity) : "1",
      price: moneyOf(p.price),
      physical: p.physical === true,
    }));
  }
  for (const fee of ["shippingFee", "extraFee", "discount"] as const) {
    if (typeof request[fee] === "number") values[fee] = moneyOf(request[fee]);
  }
  if (Array.isArray(request.splits)) {
    values.splits = listOf(request.splits).map((s) => ({ producerId: textOf(s.producerId), amount: moneyOf(s.amount) }));
  }

  const metadata = record(request.metadata);
  if (metadata) {
    values.metadata = Object.entries(metadata)
      .filter(([key, value]) => key !== ORIGIN_METADATA_KEY && ["string", "number", "boolean"].includes(typeof value))
      .map(([key, value]) => ({ key, value: String(value) }));
    if (typeof metadata[ORIGIN_METADATA_KEY] === "string") values.origin = metadata[ORIGIN_METADATA_KEY].trim();
  }

  if (isIsoDate(request.dueDate)) values.dueDate = movedDueDate(request.dueDate, options);

  for (const key of ["currency", "cryptoCurrency", "network"] as const) {
    if (typeof request[key] === "string") values[key] = request[key];
  }

  const product = record(request.product);
  if (product) values.product = { id: textOf(product.id), name: textOf(product.name), price: moneyOf(product.price) };
  const recurrence = record(request.subscription);
  if (recurrence && (PERIODICITY_TYPES as readonly unknown[]).includes(recurrence.periodicityType)) {
    values.subscription = {
      periodicityType: recurrence.periodicityType as PeriodicityType,
      periodicity: textOf(recurrence.periodicity),
      firstChargeIn: textOf(recurrence.firstChargeIn) || "0",
    };
  }
  return values;
}
