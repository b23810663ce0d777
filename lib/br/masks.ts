import { cardBrand } from "./card";
import { onlyDigits } from "./digits";

/*
 * Input masks: pure string → string, applied on every keystroke. Each one keeps only the
 * characters that matter and re-inserts punctuation, so applying it twice changes nothing.
 */

function cpfPartial(d: string): string {
  if (d.length <= 3) return d;
  if (d.length <= 6) return `${d.slice(0, 3)}.${d.slice(3)}`;
  if (d.length <= 9) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

function cnpjPartial(c: string): string {
  if (c.length <= 2) return c;
  if (c.length <= 5) return `${c.slice(0, 2)}.${c.slice(2)}`;
  if (c.length <= 8) return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5)}`;
  if (c.length <= 12) return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8)}`;
  return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
}

/** CPF mask up to 11 digits; CNPJ mask past 11 characters or as soon as a letter appears. */
export function maskCpfCnpj(value: string): string {
  const chars = value
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, "")
    .slice(0, 14);
  if (chars.length <= 11 && /^\d*$/.test(chars)) return cpfPartial(chars);
  return cnpjPartial(chars);
}

export function maskCpf(value: string): string {
  return cpfPartial(onlyDigits(value).slice(0, 11));
}

export function maskCnpj(value: string): string {
  return cnpjPartial(
    value
      .toUpperCase()
      .replace(/[^0-9A-Z]/g, "")
      .slice(0, 14),
  );
}

/** `(11) 3333-4444` for 10 digits, `(11) 99999-9999` for 11. */
export function maskPhone(value: string): string {
  const d = onlyDigits(value).slice(0, 11);
  if (d.length === 0) return "";
  if (d.length <= 2) return `(${d}`;
  const ddd = d.slice(0, 2);
  const rest = d.slice(2);
  if (rest.length <= 4) return `(${ddd}) ${rest}`;
  const split = rest.length === 9 ? 5 : 4;
  return `(${ddd}) ${rest.slice(0, split)}-${rest.slice(split)}`;
}

export function maskCep(value: string): string {
  const d = onlyDigits(value).slice(0, 8);
  return d.length <= 5 ? d : `${d.slice(0, 5)}-${d.slice(5)}`;
}

/**
 * Typed digits fill from the right as centavos: `1` → `0,01`, `123456` → `1.234,56`. A typed zero
 * stays (`0`, `0,00`), so the form can say the amount must be above zero rather than that it is
 * missing; backspace still empties it (`0,0` → `0` → ``).
 */
export function maskMoney(value: string): string {
  const typed = onlyDigits(value);
  const d = typed.replace(/^0+/, "").slice(0, 15);
  if (d === "") return typed === "" ? "" : typed.length >= 3 ? "0,00" : "0";
  const padded = d.padStart(3, "0");
  const integer = padded.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${integer},${padded.slice(-2)}`;
}

/** Groups of 4 (`4111 1111 1111 1111`); Amex 4-6-5. */
export function maskCardNumberInput(value: string): string {
  const d = onlyDigits(value);
  if (cardBrand(d) === "amex") {
    const a = d.slice(0, 15);
    return [a.slice(0, 4), a.slice(4, 10), a.slice(10)].filter(Boolean).join(" ");
  }
  return (d.slice(0, 19).match(/\d{1,4}/g) ?? []).join(" ");
}

/** `1229` → `12/29`. */
export function maskCardExpiry(value: string): string {
  const d = onlyDigits(value).slice(0, 4);
  return d.length <= 2 ? d : `${d.slice(0, 2)}/${d.slice(2)}`;
}
