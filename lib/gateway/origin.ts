/**
 * Where a sale came from, read from what the interface carries: a payment notification's
 * `trackProps`, `checkoutUrl`, `orderItems` and `offerCode`, or a charge request's `products` and
 * `metadata.origem`. Pure and browser-safe: the webhook applier, the charge recording, event
 * destinations and the sales reports read it alike.
 */

export type Utm = { source: string | null; medium: string | null; campaign: string | null; term: string | null; content: string | null };

/** The origin facts a ledger row keeps (by the table's keys). */
export type SaleOrigin = {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  productName: string | null;
  offerCode: string | null;
  /** The producer's own "origem", typed on a console charge (its `metadata.origem`). */
  originLabel: string | null;
};

/** Longest value kept: these go into indexes and report rows, and a URL's query has no limit. */
export const ORIGIN_MAX_LENGTH = 200;

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

/** Trimmed, at most ORIGIN_MAX_LENGTH UTF-16 units (never half a surrogate pair: jsonb refuses one), or null. */
function short(value: unknown): string | null {
  const trimmed = text(value)?.trim();
  if (!trimmed) return null;
  if (trimmed.length <= ORIGIN_MAX_LENGTH) return trimmed;
  const code = trimmed.charCodeAt(ORIGIN_MAX_LENGTH - 1);
  return trimmed.slice(0, code >= 0xd800 && code <= 0xdbff ? ORIGIN_MAX_LENGTH - 1 : ORIGIN_MAX_LENGTH);
}

/** UTM values from trackProps first (utm_source or utmSource), then from the checkout URL's query. */
export function utmOf(trackProps: Record<string, unknown> | null, checkoutUrl: string | null): Utm {
  let query: URLSearchParams | null = null;
  if (checkoutUrl) {
    try {
      query = new URL(checkoutUrl).searchParams;
    } catch {
      query = null;
    }
  }
  const read = (key: keyof Utm) =>
    text(trackProps?.[`utm_${key}`]) ?? text(trackProps?.[`utm${key[0]!.toUpperCase()}${key.slice(1)}`]) ?? text(query?.get(`utm_${key}`));
  return { source: read("source"), medium: read("medium"), campaign: read("campaign"), term: read("term"), content: read("content") };
}

/** The first item's product name of a list of order items (`{ product: { name } }`) or request products (`{ name }`). */
function firstProductName(items: unknown): string | null {
  if (!Array.isArray(items) || items.length === 0) return null;
  const first = record(items[0]);
  return short(record(first?.product)?.name) ?? short(first?.name);
}

/** What a payment notification says about the sale's origin (no `originLabel`: only the console's own charges carry one). */
export function notificationOrigin(payload: Record<string, unknown>): SaleOrigin {
  const utm = utmOf(record(payload.trackProps), text(payload.checkoutUrl));
  return {
    utmSource: short(utm.source),
    utmMedium: short(utm.medium),
    utmCampaign: short(utm.campaign),
    productName: firstProductName(payload.orderItems),
    offerCode: short(payload.offerCode),
    originLabel: null,
  };
}

/** What a charge request (as the ledger stores it) says: its first product (or a subscription's product) and `metadata.origem`. */
export function requestOrigin(request: Record<string, unknown> | null | undefined): SaleOrigin {
  const metadata = record(request?.metadata);
  return {
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    productName: firstProductName(request?.products) ?? short(record(request?.product)?.name),
    offerCode: null,
    originLabel: short(metadata?.origem),
  };
}

/** Only the facts known (non-null): written over a row, they fill and never clear. */
export function knownOrigin(origin: SaleOrigin): Partial<SaleOrigin> {
  return Object.fromEntries(Object.entries(origin).filter(([, value]) => value !== null)) as Partial<SaleOrigin>;
}
