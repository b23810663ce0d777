type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/** One file per area keeps pt-BR and English side by side; English must have every pt-BR key. */
export function defineMessages<const T extends Record<string, unknown>>(ptBR: T, en: Shape<T>) {
  return { "pt-BR": ptBR, en };
}
