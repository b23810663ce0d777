import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono, type HonoRequest } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ProducerDirectory, type SandboxContext, type SandboxLogger } from "./context";
import { openDatabase } from "./db/client";
import { FaultRegistry } from "./faults";
import { LookupMeter } from "./lookup-limits";
import { InsertBatcher } from "./domain/insert-batcher";
import { PayBatcher } from "./domain/pay-batcher";
import { applyTransitionNow } from "./domain/transactions";
import { ErrorCodes, errorBody, errorResponse, GatewayError } from "./lib/errors";
import { MAX_BODY_BYTES, requireProducer, type AppEnv } from "./lib/http";
import { inputGuard } from "./lib/input-guard";
import { createLogger } from "./lib/log";
import { controlRoutes } from "./routes/control";
import { gatewayRoutes } from "./routes/gateway";
import { openApiDocument } from "./routes/openapi";
import { pageRoutes } from "./routes/pages";
import { seedProducers } from "./seed";
import { ensureOpeningBalances, openingBalanceCents, parseReleaseDays } from "./domain/balance";
import { WebhookWorker } from "./webhooks/worker";
import { DEFAULT_RENEWAL_INTERVAL_MS, RenewalScheduler } from "./domain/subscriptions";

/** SANDBOX_RENEWAL_INTERVAL_MS: a whole number of ms (0 = no timer); a bad value stops the start. */
function renewalIntervalFromEnv(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_RENEWAL_INTERVAL_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`SANDBOX_RENEWAL_INTERVAL_MS: expected a whole number of ms ≥ 0, got "${raw}"`);
  return ms;
}

export type SandboxOptions = {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  webhookRetryMs?: number;
  publicUrl?: string;
  quiet?: boolean;
  /** Reais every producer without a balance starts with; default SANDBOX_OPENING_BALANCE, else 50,000. */
  openingBalance?: number;
  /** How often due subscription renewals are charged; default SANDBOX_RENEWAL_INTERVAL_MS, else 60,000; 0 = never (only clock/advance). */
  renewalIntervalMs?: number;
};

export type RunningSandbox = { url: string; port: number; publicUrl: string; close(): Promise<void> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Hono app over an already-opened context (usable in-process through `app.request()`). */
export function createSandboxApp(ctx: SandboxContext) {
  const app = new Hono<AppEnv>();

  app.onError((err, c) => {
    if (err instanceof GatewayError) return errorResponse(c, err);
    ctx.log.error(`unhandled error on ${c.req.method} ${c.req.path.slice(0, 200)}: ${(err as Error).message ?? err}`);
    return c.json(errorBody(500, ErrorCodes.internal, "Erro interno do sandbox"), 500);
  });
  app.notFound((c) => c.json(errorBody(404, ErrorCodes.notFound, `Nenhuma rota para ${c.req.method} ${c.req.path}`), 404));

  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // Connection: close, as the unread rest of the body makes the connection unusable.
      onError: (c) =>
        c.json(errorBody(413, ErrorCodes.payloadTooLarge, `O corpo da requisição passa de ${MAX_BODY_BYTES} bytes`), 413, {
          connection: "close",
        }),
    }),
  );

  app.use("*", inputGuard());

  app.get("/health", (c) => c.json({ ok: true }));
  app.get("/openapi.json", (c) => c.json(openApiDocument(ctx.publicUrl)));

  app.use("/api/v1/gateway/*", requireProducer(ctx));
  // The request log names what was ignored, so a developer sees which fields the gateway dropped.
  app.use("/api/v1/gateway/*", async (c, next) => {
    await next();
    const ignored = c.get("ignoredFields");
    if (ignored?.length) {
      ctx.log.info(
        `${c.req.method} ${c.req.path}: ignored unknown fields ${ignored.map((f) => JSON.stringify(f).slice(0, 80)).join(", ")}`,
      );
      c.header("x-sandbox-ignored-fields", ignored.map(encodeURIComponent).join(","));
    }
  });
  // Every lookup is counted by the second it arrived in; a test may ask for 429s (a rate or a fraction).
  app.use("/api/v1/gateway/transactions", async (c, next) => {
    if (c.req.method !== "GET") return next();
    const decision = ctx.lookups.record(c.get("producer").id);
    if (!decision.rateLimited) return next();
    return c.json(errorBody(429, ErrorCodes.rateLimited, "Consultas demais: tente de novo depois de Retry-After"), 429, {
      "Retry-After": String(decision.retryAfterSeconds),
    });
  });
  app.use("/api/v1/gateway/*", async (c, next) => {
    const producerId = c.get("producer").id;
    const fault = ctx.faults.take(producerId, ctx.faults.needsIdentifier(producerId) ? await callIdentifier(c.req) : undefined);
    if (!fault) return next();
    if (fault.status !== undefined && fault.afterProcessing) {
      await next();
      if (fault.latencyMs) await sleep(fault.latencyMs);
      c.res = c.json(
        errorBody(fault.status, ErrorCodes.injectedFault, `Falha simulada do sandbox: ${fault.status} depois de processar`),
        fault.status,
      );
      return;
    }
    if (fault.status !== undefined) {
      if (fault.latencyMs) await sleep(fault.latencyMs);
      const status = fault.status;
      const message = status === 429 ? "Requisições demais (falha simulada do sandbox)" : `Falha simulada do sandbox: ${status}`;
      const code = status === 429 ? ErrorCodes.rateLimited : ErrorCodes.injectedFault;
      return c.json(errorBody(status, code, message), status, status === 429 ? { "Retry-After": "1" } : undefined);
    }
    await next();
    if (fault.latencyMs) await sleep(fault.latencyMs);
    if (fault.dropConnection) {
      // The request was processed; the caller never learns the outcome.
      c.env?.incoming?.socket?.destroy();
      return;
    }
    if (fault.malformedBody) {
      c.res = new Response('{"transactionId": "', { status: 200, headers: { "content-type": "application/json" } });
    }
  });
  app.route("/api/v1/gateway", gatewayRoutes(ctx));

  app.use("/sandbox/v1/*", requireProducer(ctx));
  app.route("/sandbox/v1", controlRoutes(ctx));

  app.route("/", pageRoutes(ctx));
  return app;
}

/** The caller's identifier of a gateway call: body `identifier` on POSTs, `clientIdentifier` on lookups. */
async function callIdentifier(request: HonoRequest): Promise<string | undefined> {
  if (request.method === "GET") return request.query("clientIdentifier") ?? undefined;
  try {
    // Hono keeps the body text, so the route handler reads it again.
    const body: unknown = JSON.parse(await request.text());
    const identifier = body && typeof body === "object" ? (body as { identifier?: unknown }).identifier : undefined;
    return typeof identifier === "string" ? identifier : undefined;
  } catch {
    return undefined;
  }
}

function makeLogger(quiet: boolean): SandboxLogger {
  const log = createLogger("sandbox");
  return {
    info: (msg) => {
      if (!quiet) log.info(msg);
    },
    error: (msg) => log.error(msg),
  };
}

/** What the routes share: the database, the producers, the webhook worker, fresh faults and insert batching. */
export function sandboxContext(
  opened: Pick<SandboxContext, "db" | "driver">,
  parts: Pick<SandboxContext, "publicUrl" | "producers" | "worker" | "log">,
): SandboxContext {
  const ctx: SandboxContext = {
    db: opened.db,
    driver: opened.driver,
    ...parts,
    faults: new FaultRegistry(),
    lookups: new LookupMeter(),
    batcher: new InsertBatcher(opened.db),
    payments: null as unknown as PayBatcher,
  };
  ctx.payments = new PayBatcher(ctx, (producer, id, now, dated) => applyTransitionNow(ctx, producer, id, "pay", dated ? { now } : {}));
  return ctx;
}

/** Starts the sandbox gateway: database (migrated and seeded), HTTP server and webhook worker. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const log = makeLogger(opts.quiet ?? false);
  const opened = await openDatabase({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl });
  let server: Server | null = null;
  let worker: WebhookWorker | null = null;
  try {
    // Both settings are read before anything is served: a typo stops the start instead of a transfer.
    const openingCents = opts.openingBalance === undefined ? openingBalanceCents() : openingBalanceCents(String(opts.openingBalance));
    parseReleaseDays(process.env.SANDBOX_RELEASE_DAYS);
    const renewalIntervalMs = opts.renewalIntervalMs ?? renewalIntervalFromEnv(process.env.SANDBOX_RENEWAL_INTERVAL_MS);
    await seedProducers(opened.db);
    await ensureOpeningBalances(opened.db, openingCents);
    const producers = new ProducerDirectory(opened.db);
    await producers.load();
    worker = new WebhookWorker(opened.db, { retryBaseMs: opts.webhookRetryMs ?? 2000, log });

    const host = opts.host ?? "127.0.0.1";
    server = createServer({ keepAliveTimeout: 5_000 });
    const srv = server;
    await new Promise<void>((resolve, reject) => {
      srv.once("error", reject);
      srv.listen(opts.port ?? 4010, host, () => {
        srv.off("error", reject);
        resolve();
      });
    });
    const port = (srv.address() as AddressInfo).port;
    const publicUrl = (opts.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, "");
    const ctx = sandboxContext(opened, { publicUrl, producers, worker, log });
    const app = createSandboxApp(ctx);
    srv.on("request", getRequestListener(app.fetch));
    worker.start();
    const renewals = new RenewalScheduler(ctx, renewalIntervalMs);
    renewals.start();
    const w = worker;
    const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
    let closed: Promise<void> | null = null;
    return {
      url: `http://${urlHost}:${port}`,
      port,
      publicUrl,
      close() {
        closed ??= (async () => {
          await new Promise<void>((resolve) => {
            srv.close(() => resolve());
            srv.closeAllConnections();
          });
          await renewals.stop();
          await w.stop();
          await opened.close();
        })();
        return closed;
      },
    };
  } catch (err) {
    server?.close();
    await worker?.stop();
    await opened.close();
    throw err;
  }
}
