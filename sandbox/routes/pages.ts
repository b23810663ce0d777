import { eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import QRCode from "qrcode";
import { formatDigitableLine } from "../../lib/br/boleto";
import { formatDocument, isValidDocument, documentKind } from "../../lib/br/document";
import type { SandboxContext } from "../context";
import type { CheckoutRequest } from "../contract/requests";
import { checkouts, transactions, withdraws, payoutAccounts } from "../db/schema";
import { buildBoletoCharge, buildCardCharge, buildPixCharge, type ChargeBase } from "../domain/charges";
import { applyTransition, createTransaction, type TxRow } from "../domain/transactions";
import { pixTxidFor } from "../lib/ids";
import { callerIp, type AppEnv } from "../lib/http";
import { requestTime } from "../lib/request-time";
import { fromCents, toCents } from "../lib/money";
import { SANDBOX_BOLETO_BANK } from "../rails/boleto";
import { brl, esc, page, statusBadge } from "./html";

const PAYABLE = new Set(["OK", "PENDING"]);
const METHOD_LABELS: Record<string, string> = { PIX: "Pix", CREDIT_CARD: "Cartão de crédito", BOLETO: "Boleto", CRYPTO: "Cripto" };

function chargeDetails(tx: TxRow, publicUrl: string): string {
  if (tx.pixCode) {
    return `<h2>Pix</h2><img class="qr" alt="QR Code Pix" src="${esc(`${publicUrl}/qr/${tx.id}.png`)}">
<p class="mono">${esc(tx.pixCode)}</p>`;
  }
  if (tx.boleto) {
    return `<h2>Boleto</h2><dl><dt>Linha digitável</dt><dd class="mono">${esc(formatDigitableLine(tx.boleto.digitableLine))}</dd>
<dt>Vencimento</dt><dd>${esc(tx.boleto.dueDate)}</dd></dl><p><a href="${esc(`${publicUrl}/boleto/${tx.id}.pdf`)}">Baixar o boleto (PDF)</a></p>`;
  }
  if (tx.crypto) {
    return `<h2>Cripto</h2><dl><dt>Envie</dt><dd>${esc(tx.crypto.amount)} ${esc(tx.crypto.currency)}</dd>
<dt>Rede</dt><dd>${esc(tx.crypto.network)}</dd><dt>Endereço</dt><dd class="mono">${esc(tx.crypto.address)}</dd>
<dt>Cotação válida até</dt><dd>${esc(tx.crypto.expiresAt)}</dd></dl>`;
  }
  if (tx.card) return `<h2>Cartão</h2><p>${esc(tx.card.brand)} •••• ${esc(tx.card.last4)}</p>`;
  return "";
}

async function findByOrder(ctx: SandboxContext, orderId: string) {
  const [tx] = await ctx.db.select().from(transactions).where(eq(transactions.orderId, orderId)).limit(1);
  return tx;
}

const notFoundPage = (heading: string) => page("Não encontrado", `<div class="card"><h1>${esc(heading)}</h1></div>`);

/** Public pages the gateway hands out URLs for: hosted order, receipt, checkout, QR and PDF. */
export function pageRoutes(ctx: SandboxContext) {
  const app = new Hono<AppEnv>();

  app.get("/", (c) =>
    c.html(
      page(
        "Gateway sandbox",
        `<div class="card"><h1>Gateway sandbox</h1><p>A interface do gateway fica em <code>/api/v1/gateway</code>; a API de controle, em <code>/sandbox/v1</code>.</p><p><a href="/openapi.json">Documento OpenAPI</a></p></div>`,
      ),
    ),
  );

  app.get("/qr/:file", async (c) => {
    const match = /^(.+)\.png$/.exec(c.req.param("file"));
    if (!match) return c.notFound();
    const [tx] = await ctx.db.select({ pixCode: transactions.pixCode }).from(transactions).where(eq(transactions.id, match[1])).limit(1);
    if (!tx?.pixCode) return c.notFound();
    const png = await QRCode.toBuffer(tx.pixCode, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 360 });
    return c.body(new Uint8Array(png), 200, { "content-type": "image/png", "cache-control": "public, max-age=86400" });
  });

  app.get("/boleto/:file", async (c) => {
    const match = /^(.+)\.pdf$/.exec(c.req.param("file"));
    if (!match) return c.notFound();
    const [tx] = await ctx.db.select().from(transactions).where(eq(transactions.id, match[1])).limit(1);
    if (!tx?.boleto) return c.notFound();
    const producer = ctx.producers.get(tx.producerId)!;
    const client = (tx.client ?? {}) as { name?: string; document?: string };
    // Loaded lazily: the renderer is only needed when a PDF is asked for.
    const { renderBoletoPdf } = await import("../rails/boleto-pdf");
    const pdf = renderBoletoPdf({
      bankName: SANDBOX_BOLETO_BANK.name,
      bankCode: tx.boleto.bankCode,
      digitableLine: tx.boleto.digitableLine,
      barcode: tx.boleto.barcode,
      amount: fromCents(tx.amountCents),
      dueDate: tx.boleto.dueDate,
      beneficiaryName: producer.name,
      beneficiaryDocument: producer.document ? formatDocument(producer.document) : "",
      payerName: client.name ?? "",
      payerDocument: client.document ? formatDocument(client.document) : "",
      documentNumber: tx.boleto.barcode.slice(19, 30),
      instructions: ["Boleto do sandbox: nenhum pagamento real é possível.", `Pedido ${tx.orderId}`],
    });
    return c.body(new Uint8Array(pdf), 200, {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="boleto-${tx.id}.pdf"`,
    });
  });

  /** Location of the dynamic BR Code (the sandbox answers JSON, not a signed JWS). */
  app.get("/pix/:txid", async (c) => {
    const txid = c.req.param("txid");
    if (!/^[0-9a-f]{25}$/.test(txid)) return c.notFound();
    const uuidPrefix = `${txid.slice(0, 8)}-${txid.slice(8, 12)}-${txid.slice(12, 16)}-${txid.slice(16, 20)}-${txid.slice(20, 25)}`;
    const [tx] = await ctx.db
      .select()
      .from(transactions)
      .where(sql`${transactions.id} like ${`${uuidPrefix}%`}`)
      .limit(1);
    if (!tx || pixTxidFor(tx.id) !== txid) return c.notFound();
    return c.json({
      txid,
      status: PAYABLE.has(tx.status) ? "ATIVA" : "CONCLUIDA",
      valor: { original: fromCents(tx.amountCents).toFixed(2) },
    });
  });

  app.get("/pay/:orderId", async (c) => {
    const tx = await findByOrder(ctx, c.req.param("orderId"));
    if (!tx) return c.html(notFoundPage("Pedido não encontrado"), 404);
    const producer = ctx.producers.get(tx.producerId)!;
    const payable = PAYABLE.has(tx.status);
    const body = `<div class="card"><h1>${esc(producer.name)}</h1>
<div class="amount">${brl(fromCents(tx.amountCents))}</div>
<p>${statusBadge(tx.status)} · ${esc(METHOD_LABELS[tx.paymentMethod] ?? tx.paymentMethod)} · pedido <code>${esc(tx.orderId)}</code></p>
${tx.errorDescription ? `<p class="error">${esc(tx.errorDescription)}</p>` : ""}
${chargeDetails(tx, ctx.publicUrl)}
${
  payable
    ? `<form method="post" action="/pay/${esc(tx.orderId)}"><button type="submit">Pagar (sandbox)</button></form>`
    : tx.status === "COMPLETED"
      ? `<p><strong>Pago</strong> em ${esc(tx.payedAt?.toISOString())}. <a href="/receipt/${esc(tx.orderId)}">Comprovante</a></p>`
      : ""
}</div>`;
    return c.html(page(`Pedido ${tx.orderId}`, body));
  });

  app.post("/pay/:orderId", async (c) => {
    const tx = await findByOrder(ctx, c.req.param("orderId"));
    if (!tx) return c.html(notFoundPage("Pedido não encontrado"), 404);
    if (PAYABLE.has(tx.status)) {
      try {
        await applyTransition(ctx, ctx.producers.get(tx.producerId)!, tx.id, "pay");
      } catch {
        // Paid concurrently (double click): the page below shows the current state.
      }
    }
    return c.redirect(`/pay/${encodeURIComponent(tx.orderId)}`, 303);
  });

  app.get("/receipt/:orderId", async (c) => {
    const tx = await findByOrder(ctx, c.req.param("orderId"));
    if (!tx) return c.html(notFoundPage("Comprovante não encontrado"), 404);
    const producer = ctx.producers.get(tx.producerId)!;
    const client = (tx.client ?? {}) as { name?: string; document?: string };
    const body = `<div class="card"><h1>Comprovante</h1><div class="amount">${brl(fromCents(tx.amountCents))}</div>
<p>${statusBadge(tx.status)}</p><dl>
<dt>Transação</dt><dd class="mono">${esc(tx.id)}</dd>
<dt>Identificador</dt><dd class="mono">${esc(tx.clientIdentifier)}</dd>
<dt>Forma de pagamento</dt><dd>${esc(METHOD_LABELS[tx.paymentMethod] ?? tx.paymentMethod)}</dd>
<dt>Criada em</dt><dd>${esc(tx.createdAt.toISOString())}</dd>
<dt>Paga em</dt><dd>${esc(tx.payedAt ? tx.payedAt.toISOString() : "não paga")}</dd>
${tx.endToEndId ? `<dt>ID fim a fim (E2E)</dt><dd class="mono">${esc(tx.endToEndId)}</dd>` : ""}
<dt>Recebedor</dt><dd>${esc(producer.name)}${producer.document ? ` (${esc(formatDocument(producer.document))})` : ""}</dd>
${client.name ? `<dt>Pagador</dt><dd>${esc(client.name)}${client.document ? ` (${esc(formatDocument(client.document))})` : ""}</dd>` : ""}
</dl></div>`;
    return c.html(page(`Comprovante ${tx.orderId}`, body));
  });

  app.get("/transfer-receipt/:id", async (c) => {
    const [row] = await ctx.db
      .select({ w: withdraws, a: payoutAccounts })
      .from(withdraws)
      .innerJoin(payoutAccounts, eq(payoutAccounts.id, withdraws.payoutAccountId))
      .where(eq(withdraws.id, c.req.param("id")))
      .limit(1);
    if (!row) return c.html(notFoundPage("Transferência não encontrada"), 404);
    const owner = row.w.owner as { name?: string };
    const body = `<div class="card"><h1>Transferência Pix</h1><div class="amount">${brl(fromCents(row.w.amountCents))}</div>
<p>${statusBadge(row.w.status)}</p><dl>
<dt>Saque</dt><dd class="mono">${esc(row.w.id)}</dd>
<dt>Identificador</dt><dd class="mono">${esc(row.w.identifier)}</dd>
<dt>Tarifa</dt><dd>${brl(fromCents(row.w.feeCents))}</dd>
<dt>Chave Pix</dt><dd>${esc(row.a.pixType)}: ${esc(row.a.pixKey)}</dd>
<dt>Titular</dt><dd>${esc(owner.name)}</dd>
<dt>Criada em</dt><dd>${esc(row.w.createdAt.toISOString())}</dd>
<dt>Atualizada em</dt><dd>${esc(row.w.updatedAt.toISOString())}</dd></dl></div>`;
    return c.html(page(`Transferência ${row.w.id}`, body));
  });

  async function loadCheckout(id: string) {
    const [row] = await ctx.db.select().from(checkouts).where(eq(checkouts.id, id)).limit(1);
    return row ? { row, request: row.request } : null;
  }

  function methodsOf(request: CheckoutRequest): string[] {
    const allowed = ["PIX", "CREDIT_CARD", "BOLETO"];
    const requested = request.settings?.paymentMethods?.map((m) => m.toUpperCase()).filter((m) => allowed.includes(m));
    return requested && requested.length > 0 ? requested : allowed;
  }

  function checkoutForm(
    id: string,
    request: CheckoutRequest,
    visitedUrl: string,
    values: Record<string, string>,
    errors: Record<string, string>,
  ): string {
    const { product, settings, customer } = request;
    const v = (k: string, fallback = "") => esc(values[k] ?? fallback);
    const err = (k: string) => (errors[k] ? `<div class="error">${esc(errors[k])}</div>` : "");
    const methods = methodsOf(request);
    const chosen = values.method ?? methods[0];
    const docs = (settings?.acceptedDocs ?? ["CPF"]).map((d) => d.toUpperCase()).join(" ou ");
    const address = settings?.askForAddress
      ? `<h2>Endereço</h2>
<label for="zipCode">CEP</label><input id="zipCode" name="zipCode" value="${v("zipCode", String(customer?.address?.zipCode ?? ""))}" required>
<label for="street">Rua</label><input id="street" name="street" value="${v("street", String(customer?.address?.street ?? ""))}" required>
<label for="number">Número</label><input id="number" name="number" value="${v("number", String(customer?.address?.number ?? ""))}" required>
<label for="city">Cidade</label><input id="city" name="city" value="${v("city", String(customer?.address?.city ?? ""))}" required>
<label for="state">Estado</label><input id="state" name="state" value="${v("state", String(customer?.address?.state ?? ""))}" required>`
      : "";
    return `<div class="card">
${product.photos?.[0] ? `<img class="photo" alt="" src="${esc(product.photos[0])}">` : ""}
<h1>${esc(product.name)}</h1><p>${esc(product.offer.name)}</p>
<div class="amount">${brl(product.offer.price)}</div></div>
<form class="card" method="post" action="/checkout/${esc(id)}">
<input type="hidden" name="visitedUrl" value="${esc(values.visitedUrl ?? visitedUrl)}">
<label for="name">Nome completo</label><input id="name" name="name" value="${v("name", customer?.name)}" required>${err("name")}
<label for="email">E-mail</label><input id="email" name="email" type="email" value="${v("email", customer?.email)}" required>${err("email")}
<label for="phone">Telefone</label><input id="phone" name="phone" value="${v("phone", customer?.phone)}">
<label for="document">Documento (${esc(docs)})</label><input id="document" name="document" value="${v("document", customer?.document)}" required>${err("document")}
${address}
<h2>Forma de pagamento</h2><div class="methods">${methods
      .map(
        (m) =>
          `<label><input type="radio" name="method" value="${esc(m)}"${m === chosen ? " checked" : ""}> ${esc(METHOD_LABELS[m] ?? m)}</label>`,
      )
      .join("")}</div>
${
  methods.includes("CREDIT_CARD")
    ? `<label for="cardNumber">Número do cartão (cartões de teste: 4111111111111111 aprova, 4000000000000002 recusa)</label><input id="cardNumber" name="cardNumber" value="${v("cardNumber", "4111111111111111")}" autocomplete="off">${err("cardNumber")}`
    : ""
}
${
  methods.includes("PIX") || methods.includes("BOLETO")
    ? `<label><input type="checkbox" name="awaitPayment" value="1"${values.awaitPayment === "1" ? " checked" : ""}> Pagar depois (sandbox: o Pix ou o boleto fica aguardando pagamento, pagável na página do pedido)</label>`
    : ""
}
${err("method")}
<p></p><button type="submit">Pagar ${brl(product.offer.price)} (sandbox)</button></form>`;
  }

  app.get("/checkout/:id", async (c) => {
    const loaded = await loadCheckout(c.req.param("id"));
    if (!loaded) return c.html(notFoundPage("Checkout não encontrado"), 404);
    const visitedUrl = `${ctx.publicUrl}${new URL(c.req.url).pathname}${new URL(c.req.url).search}`;
    return c.html(
      page(loaded.request.product.name, checkoutForm(loaded.row.id, loaded.request, visitedUrl, {}, {}), loaded.request.settings?.colors),
    );
  });

  app.post("/checkout/:id", async (c) => {
    const loaded = await loadCheckout(c.req.param("id"));
    if (!loaded) return c.html(notFoundPage("Checkout não encontrado"), 404);
    const now = requestTime(c);
    const { row, request } = loaded;
    const form = await c.req.parseBody();
    const values: Record<string, string> = {};
    for (const [k, val] of Object.entries(form)) if (typeof val === "string") values[k] = val.trim();
    const errors: Record<string, string> = {};
    const accepted = (request.settings?.acceptedDocs ?? ["CPF"]).map((d) => d.toLowerCase());
    if (!values.name) errors.name = "Informe seu nome completo";
    if (!values.email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) errors.email = "Informe um e-mail válido";
    const kind = values.document ? documentKind(values.document) : null;
    if (!values.document || !isValidDocument(values.document) || !kind || !accepted.includes(kind)) {
      errors.document = `Informe um ${accepted.map((d) => d.toUpperCase()).join(" ou ")} válido`;
    }
    const methods = methodsOf(request);
    const method = (values.method ?? "").toUpperCase();
    if (!methods.includes(method)) errors.method = "Escolha uma forma de pagamento";
    const visitedUrl = values.visitedUrl?.startsWith(ctx.publicUrl) ? values.visitedUrl : `${ctx.publicUrl}/checkout/${row.id}`;
    if (Object.keys(errors).length > 0) {
      return c.html(page(request.product.name, checkoutForm(row.id, request, visitedUrl, values, errors), request.settings?.colors), 400);
    }
    const producer = ctx.producers.get(row.producerId)!;
    const [counter] = await ctx.db
      .update(checkouts)
      .set({ salesCount: sql`${checkouts.salesCount} + 1` })
      .where(eq(checkouts.id, row.id))
      .returning({ n: checkouts.salesCount });
    const utm = Object.fromEntries([...new URL(visitedUrl).searchParams.entries()].filter(([k]) => k.startsWith("utm_")));
    const client: Record<string, unknown> = {
      name: values.name,
      email: values.email,
      phone: values.phone ?? "",
      document: values.document,
    };
    if (request.settings?.askForAddress) {
      client.address = {
        zipCode: values.zipCode,
        street: values.street,
        number: values.number,
        city: values.city,
        state: values.state,
        country: "BR",
      };
    }
    const base: ChargeBase = {
      kind: "checkout",
      identifier: `checkout-${row.id}-${counter.n}`,
      amountCents: toCents(request.product.offer.price),
      client,
      products: [
        {
          id: request.product.externalId,
          externalId: request.product.externalId,
          name: request.product.name,
          price: request.product.offer.price,
          quantity: 1,
        },
      ],
      callbackUrl: null,
      checkout: { id: row.id, offerCode: row.offerCode, url: visitedUrl },
      trackProps: { ip: callerIp(c), user_agent: c.req.header("user-agent") ?? null, ...utm },
    };
    let built;
    try {
      built =
        method === "CREDIT_CARD"
          ? buildCardCharge(
              ctx,
              producer,
              { ...base, card: { number: (values.cardNumber ?? "").replace(/\D/g, ""), owner: values.name, expiresAt: "2099-12" } },
              now,
            )
          : method === "BOLETO"
            ? buildBoletoCharge(ctx, producer, base, now)
            : buildPixCharge(ctx, producer, base, now);
    } catch (e) {
      errors.cardNumber = (e as Error).message;
      return c.html(page(request.product.name, checkoutForm(row.id, request, visitedUrl, values, errors), request.settings?.colors), 400);
    }
    const created = await createTransaction(
      ctx,
      producer,
      built.row,
      built.events.map((event) => ({ event })),
    );
    let tx = created.row!;
    // Sandbox choice: the sale is paid at once unless the buyer asked to pay later (Pix, boleto).
    const awaiting = values.awaitPayment === "1" && method !== "CREDIT_CARD";
    if (PAYABLE.has(tx.status) && !awaiting) tx = await applyTransition(ctx, producer, tx.id, "pay", { now });
    const paid = tx.status === "COMPLETED";
    const pending = PAYABLE.has(tx.status);
    const thankYou = request.settings?.thankYouPage;
    const heading = paid ? "Pagamento aprovado" : pending ? "Aguardando pagamento" : "Pagamento recusado";
    const body = `<div class="card"><h1>${heading}</h1>
<div class="amount">${brl(fromCents(tx.amountCents))}</div><p>${statusBadge(tx.status)}</p>
${tx.errorDescription ? `<p class="error">${esc(tx.errorDescription)}</p>` : ""}
<dl><dt>Transação</dt><dd class="mono">${esc(tx.id)}</dd><dt>Identificador</dt><dd class="mono">${esc(tx.clientIdentifier)}</dd>
<dt>Forma de pagamento</dt><dd>${esc(METHOD_LABELS[tx.paymentMethod])}</dd></dl>
${paid && thankYou ? `<p><a id="thank-you" href="${esc(thankYou)}">Continuar</a></p>` : ""}
${pending ? `<p><a id="order" href="/pay/${esc(tx.orderId)}">Pagar este pedido</a></p>` : ""}
${!paid && !pending ? `<p><a href="${esc(visitedUrl)}">Tentar de novo</a></p>` : ""}</div>`;
    return c.html(page(heading, body, request.settings?.colors));
  });

  return app;
}
