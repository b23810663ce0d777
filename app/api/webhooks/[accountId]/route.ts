import { continueAfterResponse } from "@/lib/background/serverless";
import { handleWebhookRequest } from "@/lib/notifications/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Gateway notifications for one account; authenticated by the payload's token, never by a session. */
export async function POST(request: Request, { params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const response = await handleWebhookRequest(request, accountId);
  if (response.ok) continueAfterResponse();
  return response;
}
