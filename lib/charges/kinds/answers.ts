import { toCents } from "@/lib/br";

/*
 * Facts read from a creation answer. Subscription answers are undocumented: their status is kept
 * when it is a string, but no transaction id is claimed for the row (a first charge's id would
 * belong to that charge, which webhooks report separately).
 */

export function chargeFacts(answer: Record<string, unknown>) {
  return {
    gatewayTransactionId: typeof answer.transactionId === "string" ? answer.transactionId : null,
    status: typeof answer.status === "string" ? answer.status : null,
    feeCents: typeof answer.fee === "number" ? toCents(answer.fee) : null,
  };
}

export function subscriptionFacts(answer: Record<string, unknown>) {
  return { status: typeof answer.status === "string" ? answer.status : null };
}
