import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dictionaries } from "@/lib/i18n/messages";
import { lookup } from "@/lib/i18n/translate";
import { codeWords, vocabKey, type VocabGroup } from "@/lib/i18n/vocab";
import { createTranslator } from "@/lib/i18n/translate";
import { OPERATION_KINDS, SUBMISSION_STATES } from "@/lib/db/tables/ledger";
import { PAYOUT_BATCH_STATES } from "@/lib/db/tables/payout-batches";
import { WEBHOOK_EVENTS } from "@/lib/gateway/schemas/webhooks";
import { KNOWN_PAYMENT_METHODS } from "@/lib/gateway/schemas/common";
import { PERIODICITY_TYPES } from "@/lib/gateway/constants";
import { EVENT_TYPES, TEST_EVENT_TYPE } from "@/lib/destinations/vocabulary";
import { CHECKOUT_OFFER_TYPE_SUGGESTIONS, CHECKOUT_PAYMENT_METHODS } from "@/lib/checkout-links/options";
import { OWNER_DOCUMENT_TYPES, TRANSFER_PIX_KEY_TYPES } from "@/lib/transfers/form-options";
import { MACHINES } from "@/lib/status/machine";

const ROOT = join(__dirname, "../../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "__tests__" || name === "node_modules") return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * The audit actions the console writes, read from its code: the string (or `${prefix}.…` template)
 * on a line that names an action (`action: …`, `reconciledAction: …`, `refuse(…)`). A template's
 * prefix is expanded with the values the code gives it.
 */
export function auditActionsInCode(): string[] {
  const expansions: Record<string, readonly string[]> = { prefix: ["transfer", "payout_batch"], "input.kind": OPERATION_KINDS };
  const found = new Set<string>();
  for (const file of [...sourceFiles("lib"), ...sourceFiles("app")]) {
    const text = readFileSync(join(ROOT, file), "utf8");
    if (!/writeAudit|Action:/.test(text)) continue;
    for (const line of text.split("\n")) {
      if (!/\b\w*[aA]ction\b\s*[:=?]|\brefuse\(`/.test(line)) continue;
      for (const [, code] of line.matchAll(/["`]((?:\$\{[\w.]+\}|[a-z_]+)(?:\.(?:\$\{[\w.]+\}|[a-z_]+))+)["`]/g)) {
        const template = /\$\{([\w.]+)\}/.exec(code);
        if (!template) found.add(code);
        else for (const value of expansions[template[1]] ?? []) found.add(code.replace(template[0], value));
      }
    }
  }
  // Permission names sit on action lines too (defineAction({ permission: "…" })): they are not actions.
  return [...found].filter((code) => !code.endsWith(".manage") && code !== "accounts.create").sort();
}

/** Every code the gateway or the console writes, per catalogue group. */
function knownCodes(): Record<VocabGroup, readonly string[]> {
  const withdrawEvents = new Set<string>();
  for (const file of [...sourceFiles("lib"), ...sourceFiles("sandbox")])
    for (const [, event] of readFileSync(join(ROOT, file), "utf8").matchAll(/"(WITHDRAW_[A-Z_]+)"/g)) withdrawEvents.add(event);
  return {
    method: [...new Set([...KNOWN_PAYMENT_METHODS, ...CHECKOUT_PAYMENT_METHODS, "BOLETO", "CRYPTO"])],
    operation: OPERATION_KINDS,
    submission: SUBMISSION_STATES,
    gatewayEvent: [...WEBHOOK_EVENTS, ...withdrawEvents],
    outgoingEvent: [...EVENT_TYPES, TEST_EVENT_TYPE],
    batch: PAYOUT_BATCH_STATES,
    payoutAccount: ["ACTIVE"],
    periodicity: PERIODICITY_TYPES,
    offerType: CHECKOUT_OFFER_TYPE_SUGGESTIONS,
    purchaseType: ["ONCE", "SUBSCRIPTION", "DEPOSIT"],
    pixKeyType: TRANSFER_PIX_KEY_TYPES,
    documentType: OWNER_DOCUMENT_TYPES,
    audit: auditActionsInCode(),
  };
}

describe("the catalogue of codes", () => {
  it("finds the audit actions in the code (the scan itself works)", () => {
    const actions = auditActionsInCode();
    expect(actions).toEqual(
      expect.arrayContaining(["auth.sign_in", "operation.pix_charge", "transfer.password_refused", "ledger.confirmed_from_notification"]),
    );
    expect(actions.length).toBeGreaterThan(60);
  });

  it.each(["pt-BR", "en"] as const)("has words in %s for every code the console knows", (locale) => {
    const missing: string[] = [];
    for (const [group, codes] of Object.entries(knownCodes()) as [VocabGroup, readonly string[]][])
      for (const code of codes) if (!lookup(dictionaries[locale], vocabKey(group, code))) missing.push(`${group}: ${code}`);
    expect(missing).toEqual([]);
  });

  it.each(["pt-BR", "en"] as const)("has words in %s for every status spelling the status machines know", (locale) => {
    const missing: string[] = [];
    for (const [kind, machine] of Object.entries(MACHINES))
      for (const state of [...Object.values(machine.aliases), ...machine.states.filter((s) => s !== "unknown")])
        if (!lookup(dictionaries[locale], `status.${kind}.${state}`)) missing.push(`${kind}: ${state}`);
    expect(missing).toEqual([]);
  });

  it("shows a code it does not know as it came, marked as the gateway's", () => {
    const has = (key: string) => lookup(dictionaries["pt-BR"], key) !== undefined;
    const t = createTranslator("pt-BR", dictionaries["pt-BR"]);
    expect(codeWords(t, has, "method", "CREDIT_CARD")).toEqual({ label: "Cartão de crédito", known: true, suffix: "" });
    expect(codeWords(t, has, "method", "credit_card").label).toBe("Cartão de crédito");
    expect(codeWords(t, has, "method", "EM_ANALISE")).toEqual({ label: "EM_ANALISE (do gateway)", known: false, suffix: " (do gateway)" });
    expect(codeWords(t, has, "audit", "ledger.confirmed_from_notification").label).toBe(
      "Transação confirmada pelo gateway após notificação",
    );
    const en = createTranslator("en", dictionaries.en);
    expect(codeWords(en, has, "audit", "some.new_action").label).toBe("some.new_action (no description)");
  });
});

describe("counts", () => {
  it("counts nothing in the plural in pt-BR, on the server and in the browser's compiled messages", async () => {
    const { compileDictionary } = await import("@/lib/i18n/compile");
    const { createCompiledTranslator } = await import("@/lib/i18n/compiled");
    const server = createTranslator("pt-BR", dictionaries["pt-BR"]);
    const browser = createCompiledTranslator("pt-BR", compileDictionary(dictionaries["pt-BR"]));
    for (const t of [server, browser]) {
      expect(t("overview.count", { count: 0 })).toBe("0 transações");
      expect(t("overview.count", { count: 1 })).toBe("1 transação");
      expect(t("activity.inbox.rejectedCount", { count: 0 })).toBe("0 entregas recusadas");
    }
    expect(createTranslator("en", dictionaries.en)("overview.count", { count: 0 })).toBe("0 transactions");
  });
});
