/**
 * The one logger of the console and the sandbox: a JSON line per event, every string passed
 * through `redactText` and every field through `redact` (keys, tokens, card data).
 *
 * No `server-only`: the sandbox and scripts use it too. Nothing here holds a secret.
 */
import { redact } from "./redact";

export type Level = "info" | "warn" | "error";

const R = "[REDACTED]";

const RULES: Array<[RegExp, string]> = [
  // drizzle / pg "Failed query: <sql>\nparams: <values>": the values may hold hashes, tokens, documents.
  [/(\bparams:)[\s\S]*$/i, `$1 ${R}`],
  // password hashes (argon2, bcrypt, scrypt in PHC form)
  [/\$(?:argon2(?:id|i|d)|2[aby]|scrypt)\$[^\s"',]+/g, R],
  // key=value / "key":"value" pairs whose name says secret
  [
    /((?:token|secret|password|passwordHash|password_hash|webhookToken|webhook_token|secretKey|secret_key|x-secret-key|authorization|cookie|apiKey)\\?["']?\s*[:=]\s*\\?["']?)[^\s"',}&]+/gi,
    `$1${R}`,
  ],
  // transfer/webhook tokens and keys the console and sandbox mint
  [/\b(?:wht|sk|whsec|tok)_[A-Za-z0-9_-]{6,}/g, R],
  // CPF and CNPJ, formatted or bare
  [/\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g, "[CPF]"],
  [/\b\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}\b/g, "[CNPJ]"],
  [/(?<![\d.])\d{14}(?![\d.])/g, "[CNPJ]"],
  [/(?<![\d.])\d{11}(?![\d.])/g, "[CPF]"],
];

/** Masks secrets, hashes, query parameters, documents and card numbers in free text. */
export function redactText(text: string): string {
  let out = redact(text);
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

function describe(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
  if (typeof value === "string") return redactText(value);
  return redact(value);
}

export type Logger = { [L in Level]: (message: string, fields?: Record<string, unknown>) => void };

export function createLogger(scope: string, sink: (level: Level, line: string) => void = defaultSink): Logger {
  const emit = (level: Level) => (message: string, fields?: Record<string, unknown>) => {
    const extra = fields ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, describe(v)])) : {};
    sink(level, JSON.stringify({ time: new Date().toISOString(), level, scope, msg: redactText(message), ...(redact(extra) as object) }));
  };
  return { info: emit("info"), warn: emit("warn"), error: emit("error") };
}

function defaultSink(level: Level, line: string) {
  if (level === "info") console.log(line);
  else console.error(line);
}
