/** Decomposes (NFD) and drops combining marks: "São Paulo" → "Sao Paulo". */
export function stripAccents(value: string): string {
  return value.normalize("NFD").replace(/\p{M}+/gu, "");
}

/** Collapses runs of whitespace into one space and trims. */
export function collapseSpaces(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/** Printable ASCII only (accents stripped, other characters dropped), for fixed-format payloads. */
export function toPrintableAscii(value: string): string {
  return collapseSpaces(stripAccents(value).replace(/[^\x20-\x7e]/g, " "));
}
