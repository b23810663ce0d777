import type { Areas } from "./index";

type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every message key, checked at compile time; a type only, so the browser bundle carries no messages. */
export type MessageKey = Leaves<{ [A in keyof Areas]: Areas[A]["pt-BR"] }>;
