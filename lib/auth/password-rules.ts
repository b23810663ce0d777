// Without zod: the browser uses these before (or without) loading a form's schema.

export const MIN_PASSWORD = 12;

/** A random password without look-alike characters; Web Crypto, so the browser and the server share it. */
export function generatePassword(length = 20): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
