import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { getDb } from "@/lib/db/client";
import { checkoutLinks } from "@/lib/db/schema";
import { isGatewayError } from "@/lib/gateway";
import { gatewayForAccount } from "@/lib/gateway/connection";
import type { CheckoutRequest } from "@/lib/gateway/schemas/checkout";
import type { CheckoutLinkInput } from "./schemas";

type Actor = { id: string; email: string };

/** Why the gateway did not create the link; the action turns it into a message. */
export type CheckoutLinkRefusalReason = "forbidden" | "keysRejected" | "gatewayRefused" | "outcomeUnknown" | "gatewayUnavailable";

export class CheckoutLinkRefusedError extends Error {
  constructor(
    readonly reason: CheckoutLinkRefusalReason,
    /** The gateway's own words, shown as secondary text. */
    readonly gatewayMessage?: string,
  ) {
    super(`checkout link refused: ${reason}`);
  }
}

export type CheckoutLinkDto = Omit<typeof checkoutLinks.$inferSelect, "accountId">;

function toDto(row: typeof checkoutLinks.$inferSelect): CheckoutLinkDto {
  const dto: Partial<typeof checkoutLinks.$inferSelect> = { ...row };
  delete dto.accountId;
  return dto as CheckoutLinkDto;
}

export async function createCheckoutLink(params: {
  accountId: string;
  actor: Actor;
  ip: string | null;
  input: CheckoutLinkInput;
}): Promise<{ id: string; checkoutUrl: string }> {
  const { accountId, actor, ip, input } = params;
  const request: CheckoutRequest = input;
  const auditTarget = input.product.externalId;
  let checkoutUrl: string;
  try {
    const gateway = await gatewayForAccount(accountId);
    const response = await gateway.createCheckout(request);
    checkoutUrl = response.checkoutUrl;
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    await writeAudit({
      actor,
      accountId,
      action: "checkout_link.rejected",
      target: auditTarget,
      ip,
      details: { errorKind: error.kind, status: error.status, errorCode: error.errorCode, message: error.gatewayMessage },
    });
    const message = error.gatewayMessage ?? error.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
    switch (error.kind) {
      case "forbidden":
        throw new CheckoutLinkRefusedError("forbidden", message);
      case "auth":
        throw new CheckoutLinkRefusedError("keysRejected", message);
      case "validation":
      case "invalid_request":
      case "conflict":
        throw new CheckoutLinkRefusedError("gatewayRefused", message);
      default:
        throw new CheckoutLinkRefusedError(error.outcomeUnknown ? "outcomeUnknown" : "gatewayUnavailable", message);
    }
  }

  const db = await getDb();
  const [row] = await db
    .insert(checkoutLinks)
    .values({
      accountId,
      checkoutUrl,
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
    .returning({ id: checkoutLinks.id });
  await writeAudit({
    actor,
    accountId,
    action: "checkout_link.created",
    target: auditTarget,
    ip,
    details: { checkoutLinkId: row!.id, checkoutUrl, offer: input.product.offer.name, price: input.product.offer.price },
  });
  return { id: row!.id, checkoutUrl };
}

export async function listCheckoutLinks(accountId: string, limit = 200): Promise<CheckoutLinkDto[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(checkoutLinks)
    .where(eq(checkoutLinks.accountId, accountId))
    .orderBy(desc(checkoutLinks.createdAt))
    .limit(limit);
  return rows.map(toDto);
}

export async function getCheckoutLink(accountId: string, id: string): Promise<CheckoutLinkDto | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(checkoutLinks)
    .where(and(eq(checkoutLinks.accountId, accountId), eq(checkoutLinks.id, id)))
    .limit(1);
  return row ? toDto(row) : null;
}
