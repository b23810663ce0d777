import type { z } from "zod";
import type { OperationKind } from "@/lib/db/tables/ledger";
import type { GatewayClient } from "@/lib/gateway";
import type { MessageKey } from "@/lib/i18n/messages/keys";
import type { CreationFacts } from "@/lib/ledger/submissions";
import type { ChargeFormKind, ChargeFormValues } from "../form-values";

/*
 * One definition per kind of charge. Its two halves are apart because the browser may have only
 * one of them: the form (`ChargeKindForm`, ./forms.ts) is client-safe and loads its schema
 * when the form is first used; the rest (`ChargeKind`, ./<kind>.ts) builds and sends the gateway
 * request on the server. Everything is typed against the kind's schema, request and answer, so
 * `definition.send(gateway, definition.buildRequest(values, callbackUrl))` needs no cast.
 */

/** The sections a charge form may show after the amount. */
export type ChargeSection =
  "client" | "address" | "card" | "crypto" | "subscription" | "products" | "fees" | "splits" | "origin" | "metadata" | "dueDate";

export type ChargeKindForm<K extends ChargeFormKind = ChargeFormKind> = {
  kind: K;
  /** Identifiers the form makes start with it: `pix-20260101-3f2a9c0d1e`. */
  identifierPrefix: string;
  /** What the form asks for after the amount, in order. */
  sections: readonly ChargeSection[];
  /** The schema as the form uses it (on everything the form holds), loaded when the form is first used. */
  schema: () => Promise<z.ZodType<unknown, ChargeFormValues>>;
  /** The fields this kind sends: the form submits only these (so a card number never rides along elsewhere). */
  pick: (values: ChargeFormValues) => Partial<ChargeFormValues>;
  submitLabel: MessageKey;
  identifierHint: MessageKey;
};

/** The form half of a definition; `kind` ties it to its key in the registry. */
export function defineChargeForm<K extends ChargeFormKind>(form: ChargeKindForm<K>): ChargeKindForm<K> {
  return form;
}

/** What every charge form yields once valid: what the ledger's searchable columns are read from. */
export type ChargeValues = {
  identifier: string;
  amount: number;
  client?: { name: string; email: string; document: string };
};

export type ChargeKindDefinition<K extends ChargeFormKind, Values extends ChargeValues, Request extends Record<string, unknown>, Answer> = {
  form: ChargeKindForm<K>;
  /** The ledger's kind of the rows this form creates. */
  operationKind: OperationKind;
  paymentMethod: "PIX" | "CREDIT_CARD" | "BOLETO" | "CRYPTO";
  /** The same schema the form validated with; the server action runs it again. */
  schema: z.ZodType<Values>;
  /** The currency the ledger's row is kept in (BRL unless the kind says otherwise). */
  currency?: (values: Values) => string;
  /** The gateway request; `callbackUrl` is always the console's own receiver for the account. */
  buildRequest: (values: Values, callbackUrl: string) => Request;
  /** The request as the ledger keeps it (kinds with a card keep only its brand, BIN and last 4). */
  stored?: (request: Request) => Record<string, unknown>;
  send: (gateway: GatewayClient, request: Request) => Promise<Answer>;
  /** What the answer says about the creation. */
  facts: (answer: Answer) => CreationFacts;
};

/** A registered kind with its types erased: what the registry lists and the action looks up. */
export type ChargeKind<K extends ChargeFormKind = ChargeFormKind> = {
  kind: K;
  form: ChargeKindForm<K>;
  operationKind: OperationKind;
  /**
   * Hands the typed definition to `use`, whatever its schema, request and answer: code that
   * works on any kind (the service) is written once, generic, and stays typed.
   */
  use<T>(
    use: <Values extends ChargeValues, Request extends Record<string, unknown>, Answer>(
      definition: ChargeKindDefinition<ChargeFormKind, Values, Request, Answer>,
    ) => T,
  ): T;
};

export function defineChargeKind<K extends ChargeFormKind, Values extends ChargeValues, Request extends Record<string, unknown>, Answer>(
  definition: ChargeKindDefinition<K, Values, Request, Answer>,
): ChargeKind<K> & { definition: ChargeKindDefinition<K, Values, Request, Answer> } {
  return {
    kind: definition.form.kind,
    form: definition.form,
    operationKind: definition.operationKind,
    definition,
    use: (use) => use(definition),
  };
}
