import "server-only";
import { AccessDeniedError, authorize, can, type AccessContext } from "@/lib/auth/session";

/** The accounts whose events this user may see in the feed, narrowed to `requested` when given. */
export function feedAccountIds(ctx: AccessContext, requested?: string | null): string[] {
  const visible = ctx.accounts.filter((a) => can(ctx, "webhooks.view", a.id)).map((a) => a.id);
  if (!requested) return visible;
  return visible.includes(requested) ? [requested] : [];
}

/** Session + permission check for the feed endpoints; null when refused (with the status to answer). */
export async function authorizeFeed(): Promise<{ ctx: AccessContext } | { status: 401 | 403 }> {
  try {
    return { ctx: await authorize("webhooks.view") };
  } catch (error) {
    if (error instanceof AccessDeniedError) return { status: error.reason === "unauthenticated" ? 401 : 403 };
    throw error;
  }
}
