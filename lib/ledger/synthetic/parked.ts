import { getDb } from "@/lib/db/client";
import { ledgerTransactions } from "@/lib/db/schema";

/**
 * Pix charges the console created whose PAID notification the ledger has parked ("confirmando"),
 * awaiting the gateway's lookup: the rows of the lookup-ceiling scenario (lib/testing/confirmations.ts).
 */
export async function insertParkedPixPayments(
  accountId: string,
  payments: { identifier: string; transactionId: string; amountCents: number }[],
): Promise<{ id: string; identifier: string }[]> {
  const db = await getDb();
  const now = new Date();
  return db
    .insert(ledgerTransactions)
    .values(
      payments.map((p) => ({
        accountId,
        kind: "pix_charge" as const,
        identifier: p.identifier,
        origin: "console" as const,
        submission: "SUBMITTED" as const,
        gatewayTransactionId: p.transactionId,
        status: "OK",
        statusSource: "creation" as const,
        statusAt: now,
        lastWebhookStatus: "COMPLETED",
        lastWebhookAt: now,
        pendingStatus: "COMPLETED",
        pendingStatusAt: now,
        paymentMethod: "PIX",
        amountCents: p.amountCents,
      })),
    )
    .returning({ id: ledgerTransactions.id, identifier: ledgerTransactions.identifier });
}
