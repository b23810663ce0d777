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
import type { z } from "zod";
import type { Producer, SandboxContext } from "../context";
import { checkouts, transactions } from "../db/schema";
import {
  type BuiltCharge,
  type ChargeBase,
  buildBoletoCharge,
  buildCardCharge,
  buildCryptoCharge,
  buildPixCharge,
  buildPixDeposit,
} from "../domain/charges";
import { createTransaction, toTransactionRecord, urls } from "../domain/transactions";
import { requestRefund } from "../domain/refunds";
import { createTransfer } from "../domain/transfers";
import { createSubscription } from "../domain/subscriptions";
import { producerRecord } from "../domain/producer";
import { badRequest, ErrorCodes, GatewayError, notFound } from "../lib/errors";
import { callerIp, checkQuery, describeIssues, ignoredFields, readBody, type AppContext, type AppEnv } from "../lib/http";
import { prefixedId } from "../lib/ids";
import { REQUEST_TIME_HEADER, requestTime } from "../lib/request-time";
import { amountCents, checkClientDocument, checkSplits } from "../domain/validation";
import { resolveCrypto } from "../rails/crypto";
import { PRODUCER_CHECKOUT } from "../seed";
import { checkCheckoutRules } from "../domain/checkout-rules";

/**
 * Every POST endpoint is the same scaffold: the caller's producer, the body read with the
 * endpoint's own contract schema (unknown fields ignored and named), the handler, a JSON answer.
 */
function postRoute<S extends z.ZodType>(
  app: Hono<AppEnv>,
  path: string,
  schema: S,
  handler: (body: z.output<S>, producer: Producer, c: AppContext) => Promise<object> | object,
) {
  app.post(path, async (c) => c.json(await handler(await readBody(c, schema), c.get("producer"), c)));
}

export function gatewayRoutes(ctx: SandboxContext) {
  const app = new Hono<AppEnv>();

  /** A charge endpoint: the amount in cents, the charge built by its rail, stored with its first events. */
  const chargeRoute = <S extends z.ZodType<{ amount: number }>>(
    path: string,
    schema: S,
    build: (body: z.output<S>, cents: number, producer: Producer, now: Date) => BuiltCharge,
  ) =>
    postRoute(app, path, schema, async (body, producer, c) => {
      // Read before the body's checks: a bad x-sandbox-at is refused whatever the body says.
      const now = requestTime(c);
      const built = build(body, amountCents(body.amount), producer, now);
      return (
        await createTransaction(
          ctx,
          producer,
          built.row,
          built.events.map((event) => ({ event })),
        )
      ).response;
    });

  const chargeOf = (body: Pick<ChargeBase, "identifier" | "client" | "products" | "metadata" | "callbackUrl">, cents: number) => ({
    identifier: body.identifier,
    amountCents: cents,
    client: body.client,
    products: body.products,
    metadata: body.metadata,
    callbackUrl: body.callbackUrl,
  });

  chargeRoute("/pix/receive", pixChargeRequestSchema, (body, cents, producer, now) => {
    checkClientDocument(body.client);
    const splitsCents = checkSplits(body.splits, cents);
    if (body.dueDate && body.dueDate < now.toISOString().slice(0, 10)) throw badRequest("dueDate: deve ser hoje ou uma data futura");
    return buildPixCharge(ctx, producer, { kind: "pix", ...chargeOf(body, cents), splitsCents, dueDate: body.dueDate }, now);
  });

  chargeRoute("/card/receive", cardChargeRequestSchema, (body, cents, producer, now) => {
    checkClientDocument(body.client);
    const splitsCents = checkSplits(body.splits, cents);
    return buildCardCharge(
      ctx,
      producer,
      {
        kind: "card",
        ...chargeOf(body, cents),
        splitsCents,
        installments: body.installments,
        card: body.card,
        // The customer's IP is known only on card charges; the API caller is not the customer.
        trackProps: { ip: body.clientIp, user_agent: null },
      },
      now,
    );
  });

  chargeRoute("/boleto/receive", boletoChargeRequestSchema, (body, cents, producer, now) => {
    checkClientDocument(body.client);
    const splitsCents = checkSplits(body.splits, cents);
    return buildBoletoCharge(ctx, producer, { kind: "boleto", ...chargeOf(body, cents), splitsCents, dueDate: body.dueDate }, now);
  });

  chargeRoute("/crypto/receive", cryptoChargeRequestSchema, (body, cents, producer, now) => {
    checkClientDocument(body.client);
    const resolved = resolveCrypto(body);
    if (!resolved.ok) throw badRequest(resolved.message);
    return buildCryptoCharge(ctx, producer, { kind: "crypto", ...chargeOf(body, cents), quote: resolved.quote }, now);
  });

  chargeRoute("/pix/deposit", pixDepositRequestSchema, (body, cents, producer, now) =>
    buildPixDeposit(
      ctx,
      producer,
      {
        kind: "deposit",
        identifier: body.identifier ?? prefixedId("dep"),
        amountCents: cents,
        client: null,
        callbackUrl: body.callbackUrl,
      },
      now,
    ),
  );

  // A dated creation (x-sandbox-at) starts the subscription then: its first charge is dated then.
  const startOf = (c: AppContext) => (c.req.header(REQUEST_TIME_HEADER) ? requestTime(c) : undefined);
  postRoute(app, "/pix/subscription", pixSubscriptionRequestSchema, (body, producer, c) =>
    createSubscription(ctx, producer, { kind: "pix", ...body }, startOf(c)),
  );
  postRoute(app, "/card/subscription", cardSubscriptionRequestSchema, (body, producer, c) =>
    createSubscription(ctx, producer, { kind: "card", ...body }, startOf(c)),
  );
  postRoute(app, "/crypto/subscription", cryptoSubscriptionRequestSchema, (body, producer, c) =>
    createSubscription(ctx, producer, { kind: "crypto", ...body }, startOf(c)),
  );
  postRoute(app, "/transfers", transferRequestSchema, (body, producer, c) => createTransfer(ctx, producer, body, callerIp(c)));
  postRoute(app, "/producer/refunds", refundRequestSchema, (body, producer) => requestRefund(ctx, producer, body));

  postRoute(app, "/checkout", checkoutRequestSchema, async (body, producer) => {
    checkCheckoutRules(body);
    const missing: string[] = [];
    if (!producer.permissions.includes(PRODUCER_CHECKOUT)) missing.push(`a permissão ${PRODUCER_CHECKOUT}`);
    if (!producer.checkoutApiEnabled) missing.push("a configuração da empresa que permite criar checkouts pela API");
    if (missing.length > 0) {
      throw new GatewayError(403, ErrorCodes.forbidden, `Criação de checkout não permitida: falta a este produtor ${missing.join(" e ")}`);
    }
    const id = prefixedId("chk");
    await ctx.db.insert(checkouts).values({ id, producerId: producer.id, offerCode: prefixedId("off", 6), request: body });
    return { success: true, checkoutUrl: urls(ctx.publicUrl).checkout(id) };
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
