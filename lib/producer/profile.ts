import "server-only";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type GatewayErrorKind, type ProducerRecord } from "@/lib/gateway";

export type ProducerResult =
  { ok: true; producer: ProducerRecord; kycComplete: boolean } | { ok: false; kind: GatewayErrorKind; status?: number; message?: string };

/** KYC is complete when the gateway returns both the document and the address (2.6). */
export function isKycComplete(producer: ProducerRecord): boolean {
  return Boolean(producer.document && producer.address);
}

/** The producer behind the account's keys; also the "Testar conexão" probe. */
export async function getProducerProfile(accountId: string): Promise<ProducerResult> {
  try {
    const producer = await (await gatewayForAccount(accountId)).getProducer({ timeoutMs: 10_000 });
    return { ok: true, producer, kycComplete: isKycComplete(producer) };
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { ok: false, kind: error.kind, status: error.status, message: error.gatewayMessage ?? undefined };
  }
}
