import { and, eq, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { isValidCnpj } from "../../lib/br/cnpj";
import { isValidCpf } from "../../lib/br/cpf";
import { validatePixKey } from "../../lib/br/pix-key";
import type { Producer, SandboxContext } from "../context";
import { payoutAccounts, webhookOutbox, withdraws } from "../db/schema";
import { badRequest, conflict, invalidArgument, notFound } from "../lib/errors";
import { normalizeIp } from "../lib/http";
import { prefixedId } from "../lib/ids";
import { fromCents } from "../lib/money";
import { withdrawFeeCents } from "../rails/fees";
import { amountCents } from "./validation";
import {
  insertMovements,
  lockProducer,
  refuseAboveAvailable,
  transferDebitCents,
  transferMovements,
  transferReturnedMovements,
} from "./balance";
import { urls } from "./transactions";

type WithdrawRow = typeof withdraws.$inferSelect;
type PayoutAccountRow = typeof payoutAccounts.$inferSelect;

// In Portuguese, like the family's gateways (and the sandbox's schema messages): the console may show them as they are.
const PIX_KEY_MESSAGES: Record<string, string> = {
  "br.errors.pixKeyRequired": "a chave Pix é obrigatória",
  "br.errors.cpfInvalid": "CPF inválido (11 dígitos com dígitos verificadores válidos)",
  "br.errors.cnpjInvalid": "CNPJ inválido",
  "br.errors.emailInvalid": "e-mail inválido",
  "br.errors.emailTooLong": "chaves de e-mail têm no máximo 77 caracteres",
  "br.errors.phoneInvalid": "telefone brasileiro inválido em E.164 (+55DDNNNNNNNNN)",
  "br.errors.pixRandomKeyInvalid": "a chave aleatória é um UUID em minúsculas (8-4-4-4-12)",
};

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms: an address of the machine itself. */
export function isLoopbackIp(ip: string): boolean {
  const value = ip.trim().toLowerCase();
  if (value === "::1" || value === "0:0:0:0:0:0:0:1") return true;
  const v4 = value.startsWith("::ffff:") ? value.slice(7) : value;
  const octets = v4.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255);
}

/**
 * The interface wants the IP of the person transferring, not the calling application's, so an
 * `owner.ip` equal to the caller's is refused. Sandbox choice: when both are loopback, console and
 * browser run on one machine (the demo at localhost) and the address is accepted.
 */
export function ownerIpRefused(ownerIp: string, callerIp: string | null): boolean {
  if (!callerIp) return false;
  if (normalizeIp(ownerIp) !== normalizeIp(callerIp)) return false;
  return !(isLoopbackIp(ownerIp) && isLoopbackIp(callerIp));
}

export function withdrawJson(row: WithdrawRow) {
  return {
    id: row.id,
    amount: fromCents(row.amountCents),
    feeAmount: fromCents(row.feeCents),
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function payoutAccountJson(row: PayoutAccountRow) {
  return {
    id: row.id,
    status: row.status,
    pix: row.pixKey,
    pixType: row.pixType,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt ? row.deletedAt.toISOString() : null,
  };
}

export type TransferInput = {
  identifier: string;
  amount: number;
  discountFeeOfReceiver?: boolean;
  callbackUrl: string;
  pix: { type: string; key: string };
  owner: { ip: string; name: string; document: { type: string; number: string } };
};

export async function createTransfer(ctx: SandboxContext, producer: Producer, input: TransferInput, callerIp: string | null) {
  if (ownerIpRefused(input.owner.ip, callerIp)) {
    throw invalidArgument(
      `owner.ip: deve ser o IP do usuário que faz a transferência, não o IP da aplicação que chama o gateway (${callerIp})`,
    );
  }
  const key = validatePixKey(input.pix.type, input.pix.key);
  if (!key.ok) throw badRequest(`pix.key: ${PIX_KEY_MESSAGES[key.error] ?? key.error} para o tipo ${input.pix.type}`);
  const docType = input.owner.document.type;
  const docNumber = input.owner.document.number;
  if (docType === "cpf" && !isValidCpf(docNumber)) throw badRequest("owner.document.number: CPF inválido");
  if (docType === "cnpj" && !isValidCnpj(docNumber)) throw badRequest("owner.document.number: CNPJ inválido");
  const cents = amountCents(input.amount);
  const feeCents = withdrawFeeCents();
  if (input.discountFeeOfReceiver !== false && cents <= feeCents) {
    throw badRequest(`amount: deve ser maior que a taxa de saque (${fromCents(feeCents)}) quando a taxa é descontada do recebedor`);
  }
  const now = new Date();
  const discountFeeOfReceiver = input.discountFeeOfReceiver !== false;
  return ctx.db.transaction(async (db) => {
    // The producer's lock first: a replay finds its withdraw, and two transfers cannot spend the same money.
    await lockProducer(db, producer.id);
    const [existing] = await db
      .select({ response: withdraws.response })
      .from(withdraws)
      .where(and(eq(withdraws.producerId, producer.id), eq(withdraws.identifier, input.identifier)))
      .limit(1);
    if (existing) return existing.response;
    const balanceNow = ctx.producers.now(producer.id);
    await refuseAboveAvailable(db, producer.id, transferDebitCents({ amountCents: cents, feeCents, discountFeeOfReceiver }), balanceNow);
    const [account] = await db
      .insert(payoutAccounts)
      .values({
        id: prefixedId("pa"),
        producerId: producer.id,
        status: "ACTIVE",
        pixKey: key.key,
        pixType: input.pix.type,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [payoutAccounts.producerId, payoutAccounts.pixType, payoutAccounts.pixKey],
        set: { updatedAt: sql`${payoutAccounts.updatedAt}` },
      })
      .returning();
    const id = prefixedId("wd");
    const webhookToken = `wtt_${randomBytes(24).toString("hex")}`;
    const withdrawRow: WithdrawRow = {
      id,
      producerId: producer.id,
      identifier: input.identifier,
      payoutAccountId: account.id,
      status: "PENDING",
      amountCents: cents,
      feeCents,
      discountFeeOfReceiver,
      currency: "BRL",
      callbackUrl: input.callbackUrl,
      webhookToken,
      owner: input.owner,
      errorDescription: null,
      response: {},
      createdAt: now,
      updatedAt: now,
    };
    withdrawRow.response = {
      webhookToken,
      withdraw: withdrawJson(withdrawRow),
      payoutAccount: payoutAccountJson(account),
      receiptUrl: urls(ctx.publicUrl).transferReceipt(id),
    };
    await db.insert(withdraws).values(withdrawRow);
    await insertMovements(db, transferMovements(withdrawRow, balanceNow));
    return withdrawRow.response;
  });
}

export async function findOwnWithdraw(ctx: SandboxContext, producer: Producer, id: string) {
  const [row] = await ctx.db
    .select()
    .from(withdraws)
    .where(and(eq(withdraws.id, id), eq(withdraws.producerId, producer.id)))
    .limit(1);
  if (!row) throw notFound(`Saque ${id} não encontrado`);
  return row;
}

/**
 * Transfer notification (shape chosen by the sandbox; the interface does not give it):
 * `{ event: "WITHDRAW_COMPLETED" | "WITHDRAW_FAILED", token: <the transfer's webhookToken>,
 *    identifier, withdraw, payoutAccount, errorDescription? }` POSTed to the transfer's callbackUrl.
 */
export async function settleWithdraw(ctx: SandboxContext, producer: Producer, id: string, outcome: "complete" | "fail") {
  await findOwnWithdraw(ctx, producer, id);
  const now = new Date();
  const status = outcome === "complete" ? "COMPLETED" : "FAILED";
  const result = await ctx.db.transaction(async (db) => {
    const [row] = await db
      .update(withdraws)
      .set({ status, updatedAt: now, errorDescription: outcome === "fail" ? "Transferência recusada (evento do sandbox)" : null })
      .where(and(eq(withdraws.id, id), eq(withdraws.status, "PENDING")))
      .returning();
    if (!row) throw conflict(`O saque ${id} não está mais PENDING; só saques PENDING podem ser concluídos ou recusados`);
    if (outcome === "fail") await insertMovements(db, transferReturnedMovements(row, ctx.producers.now(producer.id)));
    const [account] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.id, row.payoutAccountId)).limit(1);
    const payload: Record<string, unknown> = {
      event: outcome === "complete" ? "WITHDRAW_COMPLETED" : "WITHDRAW_FAILED",
      token: row.webhookToken,
      identifier: row.identifier,
      withdraw: withdrawJson(row),
      payoutAccount: payoutAccountJson(account),
    };
    if (row.errorDescription) payload.errorDescription = row.errorDescription;
    await db.insert(webhookOutbox).values({
      producerId: producer.id,
      kind: "transfer",
      event: payload.event as string,
      withdrawId: row.id,
      url: row.callbackUrl,
      payload,
      nextAttemptAt: now,
    });
    return { row, account };
  });
  ctx.worker.wake();
  return { withdraw: withdrawJson(result.row), payoutAccount: payoutAccountJson(result.account) };
}
