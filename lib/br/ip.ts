const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)";
const IPV4_PATTERN = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/** Strict dotted quad: four decimal octets 0–255, no leading zeros, no whitespace. */
export function isIPv4(value: unknown): value is string {
  return typeof value === "string" && IPV4_PATTERN.test(value);
}
