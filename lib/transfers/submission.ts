import "server-only";
import { syncTransferMovements } from "@/lib/ledger/movements";
import { and, eq, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { fromCents, toCents } from "@/lib/br";
import { encryptSecret } from "@/lib/crypto/secrets";
import { getDb } from "@/lib/db/client";
import { transfers } from "@/lib/db/schema";
import type { TransferRequest, TransferResponse } from "@/lib/gateway/schemas/transfers";
import { decide, transferMachine } from "@/lib/status/machine";
import { enqueueCheck } from "@/lib/submissions/checks";
import {
  failureSet,
  gatewayTimeoutMs,
  submissionErrorInfo,
  type SubmissionActor,
  type SubmissionDefinition,
} from "@/lib/submissions/engine";
import { getTransferSettings, transferredTodayCents } from "./queries";
import { callbackKeyHash } from "./callback-key";
import type { TransferInput } from "./schemas";

export type TransferRow = typeof transfers.$inferSelect;

/** A transfer as the engine submits it: the form's values, the owner's IP and the callback path recorded before it leaves. */
export type TransferSubmission = {
  accountId: string;
  actor: SubmissionActor;
  ip: string | null;
  input: TransferInput;
  ownerIp: string;
  callbackKey: string;
  callbackUrl: string;
};

/** The action turns this into a message with the amounts formatted for the user's locale. */
export class DailyLimitError extends Error {
  constructor(
    readonly limit: number,
    readonly usedToday: number,
  ) {
    super("daily transfer limit");
  }
  get available(): number {
    return Math.max(0, fromCents(toCents(this.limit) - toCents(this.usedToday)));
  }
}

function requestOf({ input, ownerIp, callbackUrl }: TransferSubmission): TransferRequest {
  return {
    identifier: input.identifier,
    amount: input.amount,
    discountFeeOfReceiver: input.discountFeeOfReceiver,
    callbackUrl,
    pix: input.pix,
    owner: { ip: ownerIp, name: input.owner.name, document: input.owner.document },
  };
}

async function update(id: string, set: Partial<typeof transfers.$inferInsert>): Promise<TransferRow> {
  const db = await getDb();
  const [row] = await db
    .update(transfers)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(transfers.id, id))
    .returning();
  return row;
}

/**
 * Transfers (Pix withdrawals), kept in their own table. The interface has no transfer lookup:
 * an UNKNOWN transfer is settled by its own notification (lib/notifications/transfer-notifications.ts),
 * or handed to a person after the give-up time. It is never sent again.
 */
export const transferSubmissions: SubmissionDefinition<TransferSubmission, TransferRow, TransferResponse> = {
  target: "transfer",
  async claim(submission) {
    const { accountId, actor, input, ownerIp, callbackKey, callbackUrl } = submission;
    const amountCents = toCents(input.amount);
    const db = await getDb();
    const claimed = await db.transaction(async (tx) => {
      // Serialises this account's transfers so two submissions cannot both slip under the daily limit.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`transfers:${accountId}`}))`);
      const [existing] = await tx
        .select()
        .from(transfers)
        .where(and(eq(transfers.accountId, accountId), eq(transfers.identifier, input.identifier)))
        .limit(1);
      if (existing && existing.submission !== "REJECTED" && existing.submission !== "ABSENT")
        return { kind: "existing", row: existing } as const;
      const settings = await getTransferSettings(accountId, tx);
      if (settings.dailyLimitCents !== null) {
        const used = await transferredTodayCents(accountId, tx);
        if (used + amountCents > settings.dailyLimitCents) return { kind: "overLimit", limit: settings.dailyLimitCents, used } as const;
      }
      const values = {
        accountId,
        identifier: input.identifier,
        submission: "SUBMITTING" as const,
        amountCents,
        discountFeeOfReceiver: input.discountFeeOfReceiver,
        pixKeyType: input.pix.type,
        pixKey: input.pix.key,
        ownerName: input.owner.name,
        ownerDocumentType: input.owner.document.type,
        ownerDocumentNumber: input.owner.document.number,
        ownerIp,
        callbackUrl,
        callbackKeyHash: callbackKeyHash(callbackKey),
        error: null,
        createdBy: actor.id,
        createdByEmail: actor.email,
        updatedAt: new Date(),
      };
      const [row] = existing
        ? await tx.update(transfers).set(values).where(eq(transfers.id, existing.id)).returning()
        : await tx.insert(transfers).values(values).returning();
      // In the same transaction: should this process die before the answer is recorded, the reconciler still finds the transfer.
      await enqueueCheck({ accountId, target: "transfer", targetId: row.id, reason: "unknown", delayMs: gatewayTimeoutMs() + 15_000 }, tx);
      return { kind: "claimed", row } as const;
    });
    if (claimed.kind === "overLimit") {
      const { limit, used } = claimed;
      await writeAudit({
        actor,
        accountId,
        action: "transfer.refused_daily_limit",
        target: input.identifier,
        ip: submission.ip,
        details: { amount: input.amount, limit: fromCents(limit), usedToday: fromCents(used) },
      });
      throw new DailyLimitError(fromCents(limit), fromCents(used));
    }
    return claimed.kind === "claimed" ? { claimed: true, row: claimed.row, checkOpened: true } : { claimed: false, row: claimed.row };
  },
  send: (gateway, submission) => gateway.createTransfer(requestOf(submission)),
  async created(row, response) {
    const { webhookToken, withdraw, payoutAccount, receiptUrl } = response;
    const db = await getDb();
    return db.transaction(async (tx) => {
      const [current] = await tx
        .select({ status: transfers.withdrawStatus, at: transfers.withdrawStatusAt })
        .from(transfers)
        .where(eq(transfers.id, row.id))
        .for("update");
      // A notification may have overtaken this answer: the status machine decides.
      const decision = decide(transferMachine, current?.status ?? null, withdraw.status, {
        currentAt: current?.at ?? null,
        incomingAt: new Date(),
      });
      const [settled] = await tx
        .update(transfers)
        .set({
          submission: "SUBMITTED",
          withdrawId: withdraw.id,
          ...(decision.apply
            ? { withdrawStatus: withdraw.status, withdrawStatusSource: "creation" as const, withdrawStatusAt: new Date() }
            : {}),
          feeCents: typeof withdraw.feeAmount === "number" ? toCents(withdraw.feeAmount) : null,
          withdraw,
          payoutAccount,
          receiptUrl: receiptUrl ?? null,
          webhookTokenEncrypted: encryptSecret(webhookToken),
          updatedAt: new Date(),
        })
        .where(eq(transfers.id, row.id))
        .returning();
      await syncTransferMovements(tx, row.id);
      return settled;
    });
  },
  failed: (row, outcome, error) => update(row.id, failureSet(outcome, error)),
  audit({ input: { input }, row, outcome, error }) {
    const details = {
      transferId: row.id,
      amount: input.amount,
      discountFeeOfReceiver: input.discountFeeOfReceiver,
      pixKeyType: input.pix.type,
      ownerName: input.owner.name,
    };
    if (outcome === "created") {
      return {
        action: "transfer.submitted",
        target: input.identifier,
        details: { ...details, withdrawId: row.withdrawId, status: row.withdraw?.status },
      };
    }
    const info = submissionErrorInfo(error);
    return {
      action: outcome === "rejected" ? "transfer.rejected" : "transfer.outcome_unknown",
      target: input.identifier,
      details: { ...details, errorKind: row.error?.kind ?? "internal", status: info.status, errorCode: info.errorCode },
    };
  },
  async lookup(check) {
    const db = await getDb();
    const [transfer] = await db.select().from(transfers).where(eq(transfers.id, check.targetId));
    if (!transfer || (transfer.submission !== "UNKNOWN" && transfer.submission !== "SUBMITTING")) {
      return { state: "done", outcome: "settled", row: transfer ?? null, changed: false };
    }
    return { state: "waiting", outcome: "waiting_notification", row: transfer, giveUpOutcome: "no_notification" };
  },
  reconciledAction: "transfer.reconciled",
  reconciledDetails: (_check, row, outcome) => ({ outcome, submission: row.submission }),
  needsPersonAction: "transfer.needs_person",
  needsPersonDetails: (check, result) => ({ target: check.targetId, details: { identifier: result.row?.identifier } }),
};
