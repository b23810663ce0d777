const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * A moment the gateway sent, or null. Outside years 1–9999 too: JavaScript reads
 * `+275760-09-13T00:00:00Z`, Postgres refuses it, and a delivery carrying one failed every retry.
 */
export function parseGatewayTime(value: unknown): Date | null {
  if (typeof value !== "string" || value.length === 0) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) || time < EARLIEST || time > LATEST ? null : new Date(time);
}
