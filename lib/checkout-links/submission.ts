import "server-only";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { checkoutLinks } from "@/lib/db/schema";
import type { CheckoutRequest, CheckoutResponse } from "@/lib/gateway/schemas/checkout";
import { failureSet, submissionErrorInfo, type SubmissionActor, type SubmissionDefinition } from "@/lib/submissions/engine";
import type { CheckoutLinkInput } from "./schemas";

export type CheckoutLinkRow = typeof checkoutLinks.$inferSelect;

export type CheckoutLinkSubmission = { accountId: string; actor: SubmissionActor; ip: string | null; input: CheckoutLinkInput };

async function update(id: string, set: Partial<typeof checkoutLinks.$inferInsert>): Promise<CheckoutLinkRow> {
  const db = await getDb();
  const [row] = await db.update(checkoutLinks).set(set).where(eq(checkoutLinks.id, id)).returning();
  return row;
}

/**
 * Hosted checkout links. The interface gives a checkout no identifier to send and no lookup, so
 * each submission is recorded under an identifier of its own, and a link whose answer was lost
 * cannot be settled by the console: it waits, and a person is asked after the give-up time.
 */
export const checkoutLinkSubmissions: SubmissionDefinition<CheckoutLinkSubmission, CheckoutLinkRow, CheckoutResponse> = {
  target: "checkout_link",
  async claim({ accountId, actor, input }) {
    const db = await getDb();
    const request: CheckoutRequest = input;
    const [row] = await db
      .insert(checkoutLinks)
      .values({
        accountId,
        identifier: randomUUID(),
        submission: "SUBMITTING",
        productExternalId: input.product.externalId,
        productName: input.product.name,
        offerName: input.product.offer.name,
        price: String(input.product.offer.price),
        currency: input.product.offer.currency,
        lang: input.product.offer.lang,
        request: request as Record<string, unknown>,
        createdBy: actor.id,
        createdByEmail: actor.email,
      })
      .returning();
    return { claimed: true, row };
  },
  send: (gateway, { input }) => gateway.createCheckout(input),
  created: (row, response) => update(row.id, { submission: "SUBMITTED", checkoutUrl: response.checkoutUrl, error: null }),
  failed: (row, outcome, error) => update(row.id, failureSet(outcome, error)),
  audit({ input: { input }, row, outcome, error }) {
    const target = input.product.externalId;
    if (outcome === "created") {
      return {
        action: "checkout_link.created",
        target,
        details: {
          checkoutLinkId: row.id,
          checkoutUrl: row.checkoutUrl,
          offer: input.product.offer.name,
          price: input.product.offer.price,
        },
      };
    }
    const info = submissionErrorInfo(error);
    return {
      action: "checkout_link.rejected",
      target,
      details: {
        errorKind: row.error?.kind ?? info.kind,
        status: info.status,
        errorCode: info.errorCode,
        message: info.message,
        outcomeUnknown: outcome === "unknown",
      },
    };
  },
  async lookup(check) {
    const db = await getDb();
    const [row] = await db.select().from(checkoutLinks).where(eq(checkoutLinks.id, check.targetId));
    if (!row || (row.submission !== "UNKNOWN" && row.submission !== "SUBMITTING"))
      return { state: "done", outcome: "settled", row: row ?? null, changed: false };
    return { state: "waiting", outcome: "no_lookup", row, giveUpOutcome: "no_lookup" };
  },
  reconciledAction: "checkout_link.reconciled",
  reconciledDetails: (_check, row, outcome) => ({ outcome, submission: row.submission }),
  needsPersonAction: "checkout_link.needs_person",
  needsPersonDetails: (check, result) => ({
    target: check.targetId,
    details: { productExternalId: result.row?.productExternalId ?? null },
  }),
};
