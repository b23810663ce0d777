export const UFS = [
  "AC",
  "AL",
  "AP",
  "AM",
  "BA",
  "CE",
  "DF",
  "ES",
  "GO",
  "MA",
  "MT",
  "MS",
  "MG",
  "PA",
  "PB",
  "PR",
  "PE",
  "PI",
  "RJ",
  "RN",
  "RS",
  "RO",
  "RR",
  "SC",
  "SP",
  "SE",
  "TO",
] as const;

export type Uf = (typeof UFS)[number];

const UF_SET: ReadonlySet<string> = new Set(UFS);

/** Exact, upper-case two-letter code. */
export function isUf(value: unknown): value is Uf {
  return typeof value === "string" && UF_SET.has(value);
}
