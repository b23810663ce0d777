import "server-only";
import { getAccountCredentials } from "@/lib/accounts/queries";
import { env } from "@/lib/env";
import { createGatewayClient, type GatewayClient } from "./client";
import { processLookupLimiter } from "./lookup-limiter";

/**
 * The gateway client for one account, built from its decrypted credentials on the server.
 * Callers must already have checked the user's permission on `accountId`.
 */
export async function gatewayForAccount(accountId: string): Promise<GatewayClient> {
  const credentials = await getAccountCredentials(accountId);
  if (!credentials) throw new Error(`Unknown gateway account ${accountId}`);
  return createGatewayClient({
    baseUrl: credentials.baseUrl,
    publicKey: credentials.publicKey,
    secretKey: credentials.secretKey,
    timeoutMs: Number(process.env.GATEWAY_TIMEOUT_MS ?? 15_000),
    lookupLimiter: processLookupLimiter(`${credentials.baseUrl}\u0000${credentials.publicKey}`),
  });
}

/**
 * Where the gateway sends this account's notifications. The console always sets it itself;
 * `objectKey` is an unguessable per-object segment (a transfer's own path).
 */
export function webhookUrlFor(accountId: string, objectKey?: string): string {
  return `${env.appUrl}/api/webhooks/${accountId}${objectKey ? `/${objectKey}` : ""}`;
}
