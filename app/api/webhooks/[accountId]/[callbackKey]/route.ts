import { continueAfterResponse } from "@/lib/background/serverless";
import { handleWebhookRequest } from "@/lib/notifications/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Notifications on one object's own callback path (a transfer's): the key names and authenticates that object. */
export async function POST(request: Request, { params }: { params: Promise<{ accountId: string; callbackKey: string }> }) {
  const { accountId, callbackKey } = await params;
  const response = await handleWebhookRequest(request, accountId, callbackKey);
  if (response.ok) continueAfterResponse();
  return response;
}
