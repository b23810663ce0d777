import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import {
  boletoChargeRequestSchema,
  cardChargeRequestSchema,
  checkoutRequestSchema,
  cryptoChargeRequestSchema,
  pixChargeRequestSchema,
  pixDepositRequestSchema,
  refundRequestSchema,
  transactionQuerySchema,
  transferRequestSchema,
  pixSubscriptionRequestSchema,
  cardSubscriptionRequestSchema,
  cryptoSubscriptionRequestSchema,
} from "../contract/requests";
import type { SandboxContext } from "../context";
import { checkouts, transactions } from "../db/schema";
import { buildBoletoCharge, buildCardCharge, buildCryptoCharge, buildPixCharge, buildPixDeposit } from "../domain/charges";
import { createTransaction, toTransactionRecord, urls } from "../domain/transactions";
import { requestRefund } from "../domain/refunds";
import { createTransfer } from "../domain/transfers";
import { createSubscription } from "../domain/subscriptions";
import { producerRecord } from "../domain/producer";
import { badRequest, ErrorCodes, GatewayError, notFound } from "../lib/errors";
import { callerIp, checkQuery, describeIssues, ignoredFields, readBody, type AppEnv } from "../lib/http";
import { prefixedId } from "../lib/ids";
import { amountCents, checkClientDocument, checkSplits } from "../domain/validation";
import { resolveCrypto } from "../rails/crypto";
import { PRODUCER_CHECKOUT } from "../seed";
import { checkCheckoutRules } from "../domain/checkout-rules";

export function gatewayRoutes(ctx: SandboxContext) {
  const app = new Hono<AppEnv>();

  app.post("/pix/receive", async (c) => {
    const producer = c.get("producer");
    const body = await readBody(c, pixChargeRequestSchema);
    const cents = amountCents(body.amount);
    checkClientDocument(body.client);
    checkSplits(body.splits, cents);
    if (body.dueDate && body.dueDate < new Date().toISOString().slice(0, 10)) throw badRequest("dueDate: must be today or later");
    const built = buildPixCharge(ctx, producer, {
      kind: "pix",
      identifier: body.identifier,
      amountCents: cents,
      client: body.client,
      products: body.products,
      metadata: body.metadata,
      dueDate: body.dueDate,
      callbackUrl: body.callbackUrl,
    });
    const result = await createTransaction(ctx, producer, built.row, built.events.map((event) => ({ event })));
    return c.json(result.response);
  });

  app.post("/card/receive", async (c) => {
    const producer = c.get("producer");
    const body = await readBody(c, cardChargeRequestSchema);
    const cents = amountCents(body.amount);
    checkClientDocument(body.client);
    checkSplits(body.splits, cents);
    const built = buildCardCharge(ctx, producer, {
      kind: "card",
      identifier: body.identifier,
      amountCents: cents,
      installments: body.installments,
      client: body.client,
      products: body.products,
      metadata: body.metadata,
      callbackUrl: body.callbackUrl,
      card: body.card,
      // The customer's IP is known only on card charges; the API caller is not the customer.
      trackProps: { ip: body.clientIp, user_agent: null },
    });
    const result = await createTransaction(ctx, producer, built.row, built.events.map((event) => ({ event })));
    return c.json(result.response);
  });

  app.post("/boleto/receive", async (c) => {
    const producer = c.get("producer");
    const body = await readBody(c, boletoChargeRequestSchema);
    const cents = amountCents(body.amount);
    checkClientDocument(body.client);
    checkSplits(body.splits, cents);
    const built = buildBoletoCharge(ctx, producer, {
      kind: "boleto",
      identifier: body.identifier,
      amountCents: cents,
      dueDate: body.dueDate,
      client: body.client,
      products: body.products,
      metadata: body.metadata,
      callbackUrl: body.callbackUrl,
    });
    const result = await createTransaction(ctx, producer, built.row, built.events.map((event) => ({ event })));
    return c.json(result.response);
  });

  app.post("/crypto/receive", async (c) => {
    const producer = c.get("producer");
    const body = await readBody(c, cryptoChargeRequestSchema);
    const cents = amountCents(body.amount);
    checkClientDocument(body.client);
    const resolved = resolveCrypto(body);
    if (!resolved.ok) throw badRequest(resolved.message);
    const built = buildCryptoCharge(ctx, producer, {
      kind: "crypto",
      identifier: body.identifier,
      amountCents: cents,
      quote: resolved.quote,
      client: body.client,
      products: body.products,
      metadata: body.metadata,
      callbackUrl: body.callbackUrl,
    });
    const result = await createTransaction(ctx, producer, built.row, built.events.map((event) => ({ event })));
    return c.json(result.response);
  });

  app.post("/pix/deposit", async (c) => {
    const producer = c.get("producer");
    const body = await readBody(c, pixDepositRequestSchema);
    const cents = amountCents(body.amount);
    const built = buildPixDeposit(ctx, producer, {
      kind: "deposit",
      identifier: body.identifier ?? prefixedId("dep"),
      amountCents: cents,
      client: null,
      callbackUrl: body.callbackUrl,
    });
    const result = await createTransaction(ctx, producer, built.row, built.events.map((event) => ({ event })));
    return c.json(result.response);
  });

  app.post("/pix/subscription", async (c) => {
    const body = await readBody(c, pixSubscriptionRequestSchema);
    return c.json(await createSubscription(ctx, c.get("producer"), { kind: "pix", ...body }));
  });

  app.post("/card/subscription", async (c) => {
    const body = await readBody(c, cardSubscriptionRequestSchema);
    return c.json(await createSubscription(ctx, c.get("producer"), { kind: "card", ...body }));
  });

  app.post("/crypto/subscription", async (c) => {
    const body = await readBody(c, cryptoSubscriptionRequestSchema);
    return c.json(await createSubscription(ctx, c.get("producer"), { kind: "crypto", ...body }));
  });

  app.post("/transfers", async (c) => {
    const body = await readBody(c, transferRequestSchema);
    return c.json(await createTransfer(ctx, c.get("producer"), body, callerIp(c)));
  });

  app.post("/checkout", async (c) => {
    const producer = c.get("producer");
    const body = await readBody(c, checkoutRequestSchema);
    checkCheckoutRules(body);
    const missing: string[] = [];
    if (!producer.permissions.includes(PRODUCER_CHECKOUT)) missing.push(`the ${PRODUCER_CHECKOUT} permission`);
    if (!producer.checkoutApiEnabled) missing.push("the company setting that allows checkout creation through the API");
    if (missing.length > 0) {
      throw new GatewayError(403, ErrorCodes.forbidden, `Checkout creation is not allowed: this producer lacks ${missing.join(" and ")}`);
    }
    const id = prefixedId("chk");
    await ctx.db.insert(checkouts).values({ id, producerId: producer.id, offerCode: prefixedId("off", 6), request: body });
    return c.json({ success: true, checkoutUrl: urls(ctx.publicUrl).checkout(id) });
  });

  app.post("/producer/refunds", async (c) => {
    const body = await readBody(c, refundRequestSchema);
    return c.json(await requestRefund(ctx, c.get("producer"), body));
  });

  app.get("/transactions", async (c) => {
    const producer = c.get("producer");
    const query = c.req.query();
    checkQuery(query);
    const parsed = transactionQuerySchema.safeParse(query);
    if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues));
    const ignored = ignoredFields(query, parsed.data);
    if (ignored.length > 0) c.set("ignoredFields", ignored);
    const { id, clientIdentifier } = parsed.data;
    const conditions = [eq(transactions.producerId, producer.id)];
    if (id) conditions.push(eq(transactions.id, id));
    if (clientIdentifier) conditions.push(eq(transactions.clientIdentifier, clientIdentifier));
    const [row] = await ctx.db
      .select()
      .from(transactions)
      .where(and(...conditions))
      .orderBy(desc(transactions.createdAt))
      .limit(1);
    if (!row) throw notFound("Transação não encontrada");
    return c.json(toTransactionRecord(row, producer, ctx.publicUrl));
  });

  app.get("/producer", (c) => c.json(producerRecord(c.get("producer"))));

  return app;
}
