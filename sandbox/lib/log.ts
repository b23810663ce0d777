/**
 * The sandbox's log lines: JSON, with the secrets it mints and handles masked (transfer and
 * webhook tokens, keys, card numbers, CPF/CNPJ). Its own, as the sandbox shares only lib/br.
 */
const R = "[REDACTED]";
const RULES: Array<[RegExp, string]> = [
  [/(\bparams:)[\s\S]*$/i, `$1 ${R}`],
  [/((?:token|secret|password|webhookToken|secretKey|x-secret-key|authorization)\\?["']?\s*[:=]\s*\\?["']?)[^\s"',}&]+/gi, `$1${R}`],
  [/\b(?:wht|sk|whsec|tok|pk)_[A-Za-z0-9_-]{6,}/g, R],
  [/\b\d{13,19}\b/g, "[CARD]"],
  [/\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g, "[CPF]"],
  [/\b\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}\b/g, "[CNPJ]"],
  [/(?<![\d.])\d{11}(?![\d.])/g, "[CPF]"],
];

export function redactLine(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

export function createLogger(scope: string) {
  const emit = (level: "info" | "error") => (message: string) => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, scope, msg: redactLine(message) });
    if (level === "info") console.log(line);
    else console.error(line);
  };
  return { info: emit("info"), error: emit("error") };
}
