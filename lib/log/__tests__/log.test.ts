import { describe, expect, it } from "vitest";
import { createLogger, redactText } from "@/lib/log";

describe("redacting logger", () => {
  it("drops the parameters of a failed query (password hashes, tokens)", () => {
    const message =
      'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: a@b.com,$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';
    const out = redactText(message);
    expect(out).toContain('insert into "users"');
    expect(out).not.toContain("argon2id");
    expect(out).not.toContain("a@b.com");
  });

  it("masks hashes, tokens, keys, card numbers and CPF/CNPJ in free text", () => {
    const out = redactText(
      "hash $2b$12$abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijab token=wht_9a8b7c6d5e4f sk_live_abcdef123456 card 4111 1111 1111 1111 cpf 529.982.247-25 52998224725 cnpj 11.222.333/0001-81 11222333000181",
    );
    for (const leaked of [
      "$2b$12$",
      "wht_9a8b7c6d5e4f",
      "sk_live_abcdef123456",
      "4111 1111 1111 1111",
      "529.982.247-25",
      "52998224725",
      "11.222.333/0001-81",
      "11222333000181",
    ]) {
      expect(out).not.toContain(leaked);
    }
  });

  it("writes JSON lines with fields redacted, errors by message only", () => {
    const lines: string[] = [];
    const log = createLogger("test", (_level, line) => lines.push(line));
    const error = new Error('Failed query: select 1\nparams: {"token":"tok_secret_value"}');
    log.error("transfer failed", { error, webhookToken: "wht_abcdef123456", document: "529.982.247-25", cardNumber: "4111111111111111" });
    const line = lines[0];
    const parsed = JSON.parse(line);
    expect(parsed).toMatchObject({ level: "error", scope: "test", msg: "transfer failed" });
    expect(line).not.toMatch(/tok_secret_value|wht_abcdef123456|529\.982\.247-25|4111111111111111|at .*\.ts/);
  });
});
