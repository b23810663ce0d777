import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";

/** What the console created on the gateway, plus what webhooks and lookups told it about. */
export const OPERATION_KINDS = [
  "pix_charge",
  "card_charge",
  "boleto_charge",
  "crypto_charge",
  "pix_deposit",
  "pix_subscription",
  "card_subscription",
  "crypto_subscription",
  /** Learned from a webhook or a lookup: not created from this console. */
  "external",
] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/**
 * The console's own knowledge of a submission, separate from the gateway's status:
 * SUBMITTING (recorded, request on its way), SUBMITTED (the gateway answered 2xx),
 * REJECTED (the gateway answered an error: nothing was created), UNKNOWN (sent, no
 * answer: must be looked up before anything is sent again), ABSENT (a lookup after
 * UNKNOWN found nothing: safe to submit again).
 */
export const SUBMISSION_STATES = ["SUBMITTING", "SUBMITTED", "REJECTED", "UNKNOWN", "ABSENT"] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    kind: text("kind").$type<OperationKind>().notNull(),
    /** The caller's identifier sent to the gateway (clientIdentifier in lookups). */
    identifier: text("identifier").notNull(),
    origin: text("origin").$type<"console" | "webhook" | "lookup">().notNull(),
    submission: text("submission").$type<SubmissionState>(),
    gatewayTransactionId: text("gateway_transaction_id"),
    /** The gateway's status string, exactly as reported; never inferred. */
    status: text("status"),
    statusSource: text("status_source").$type<"creation" | "webhook" | "lookup">(),
    statusAt: timestamp("status_at", { withTimezone: true }),
    lastWebhookStatus: text("last_webhook_status"),
    lastWebhookAt: timestamp("last_webhook_at", { withTimezone: true }),
    /** A notified status that would move money, shown as "received, confirming" until the gateway's lookup confirms it. */
    pendingStatus: text("pending_status"),
    pendingStatusAt: timestamp("pending_status_at", { withTimezone: true }),
    lastLookupStatus: text("last_lookup_status"),
    lastLookupAt: timestamp("last_lookup_at", { withTimezone: true }),
    paymentMethod: text("payment_method"),
    amountCents: bigint("amount_cents", { mode: "number" }),
    feeCents: bigint("fee_cents", { mode: "number" }),
    currency: text("currency").notNull().default("BRL"),
    clientName: text("client_name"),
    clientEmail: text("client_email"),
    clientDocument: text("client_document"),
    /** The request as sent, minus card number and CVV (at most BIN and last 4 kept). */
    request: jsonb("request").$type<Record<string, unknown>>(),
    /** The gateway's creation answer, as returned. */
    response: jsonb("response").$type<Record<string, unknown>>(),
    /** The latest transaction record from a lookup or webhook, as returned. */
    gatewayRecord: jsonb("gateway_record").$type<Record<string, unknown>>(),
    error: jsonb("error").$type<{ kind: string; status?: number; errorCode?: string; message?: string }>(),
    createdBy: text("created_by"),
    createdByEmail: text("created_by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** When the gateway releases the sale's net to the available balance (a lookup's `availableAt`); null: not told. */
    availableAt: timestamp("available_at", { withTimezone: true }),
    /** When the sale was refunded or charged back, per the gateway (`refundedAt`) or the confirmed notification. */
    reversedAt: timestamp("reversed_at", { withTimezone: true }),
    /**
     * Where the sale came from (lib/gateway/origin.ts), for the sales reports: UTM values and the
     * offer from payment notifications, the first product from them or from the console's request,
     * `originLabel` the producer's own "origem" (a console charge's `metadata.origem`). Filled when
     * first known, never cleared.
     */
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    productName: text("product_name"),
    offerCode: text("offer_code"),
    originLabel: text("origin_label"),
  },
  (t) => [
    uniqueIndex("ledger_account_identifier_key").on(t.accountId, t.identifier),
    uniqueIndex("ledger_account_gateway_id_key")
      .on(t.accountId, t.gatewayTransactionId)
      .where(sql`${t.gatewayTransactionId} is not null`),
    index("ledger_account_created_idx").on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // Transactions list filters and the overview's latest activity (the trigram search index is in a custom migration).
    index("ledger_account_status_created_idx").on(t.accountId, t.status, t.createdAt.desc(), t.id.desc()),
    index("ledger_account_method_created_idx").on(t.accountId, t.paymentMethod, t.createdAt.desc(), t.id.desc()),
    index("ledger_account_updated_idx").on(t.accountId, t.updatedAt.desc()),
    index("ledger_account_paid_idx").on(t.accountId, t.paidAt),
    // The sales recovery list (lib/sales): charges still awaiting payment. The spellings are transactionMachine's
    // "awaiting" ones (lib/status/machine.ts; a test checks they agree). The list also leaves out a paid notification
    // being confirmed, by a filter: with pending_status in this predicate, parking one could not update the row in place.
    index("ledger_account_awaiting_idx")
      .on(t.accountId, t.createdAt)
      .where(
        sql`${t.paidAt} is null and upper(regexp_replace(trim(${t.status}), '[\\s-]+', '_', 'g')) in ('OK', 'PENDING', 'CREATED', 'WAITING_PAYMENT', 'AWAITING_PAYMENT', 'PROCESSING')`,
      ),
    // Dunning: a subscription's renewal that can no longer be paid (transactionMachine's failed, canceled and expired
    // spellings; a test checks they agree) joins the recovery list, found through this index (lib/sales/queries.ts).
    index("ledger_account_unpayable_idx")
      .on(t.accountId, t.createdAt)
      .where(
        sql`${t.paidAt} is null and upper(regexp_replace(trim(${t.status}), '[\\s-]+', '_', 'g')) in ('FAILED', 'REFUSED', 'DECLINED', 'CANCELED', 'CANCELLED', 'EXPIRED')`,
      ),
    // Dunning (lib/subscriptions/dunning.ts): the few charges made for a subscription's renewal name it in
    // `metadata.renovacao` (its gateway transaction id); the recovery list and the recovered figures look them up by it.
    index("ledger_account_renewal_charge_idx")
      .on(t.accountId, sql`(${t.request}->'metadata'->>'renovacao')`)
      .where(sql`${t.request}->'metadata' ? 'renovacao'`),
  ],
);
