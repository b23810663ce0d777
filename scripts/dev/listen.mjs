#!/usr/bin/env node
// `npm run listen -- --forward-to http://localhost:8000/hook`: watch an account's events on your
// own machine without a public address. The command pulls the account's deliveries from the
// console (with a listen key made on the Destinations page), forwards each one to your local URL
// with its Standard Webhooks headers, and reports what your receiver answered to the console's
// attempts log. Nothing else to install: plain Node.js.
import process from "node:process";
import { parseArgs } from "node:util";

const USAGE = `Uso / usage:
  CONSOLE_LISTEN_KEY=lst_… npm run listen -- --forward-to <url> [--console <url>]

  --forward-to   where your system receives events, e.g. http://localhost:8000/hook
  --console      the console's address (default: $CONSOLE_URL or http://localhost:3000)
  --key          the listen key (default: $CONSOLE_LISTEN_KEY); make one on the Destinations page`;

let options;
try {
  options = parseArgs({
    options: {
      "forward-to": { type: "string" },
      console: { type: "string" },
      key: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
} catch (error) {
  console.error(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const forwardTo = options["forward-to"];
const consoleUrl = (options.console ?? process.env.CONSOLE_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const key = options.key ?? process.env.CONSOLE_LISTEN_KEY;
if (!forwardTo || !key) {
  console.error(
    `${!key ? "Falta a chave de escuta (CONSOLE_LISTEN_KEY). / Missing the listen key." : "Falta --forward-to. / Missing --forward-to."}\n\n${USAGE}`,
  );
  process.exit(2);
}

const auth = { authorization: `Bearer ${key}` };
const time = () => new Date().toLocaleTimeString("pt-BR", { hour12: false });
let stopping = false;
process.on("SIGINT", () => {
  stopping = true;
  console.log("\nAté mais. / Bye.");
  process.exit(0);
});

async function call(path, init = {}) {
  const response = await fetch(`${consoleUrl}${path}`, {
    ...init,
    headers: { ...auth, "content-type": "application/json", ...init.headers },
  });
  const body = await response.json().catch(() => ({}));
  if (response.status === 401) {
    console.error(`A chave de escuta foi recusada (desconhecida, expirada ou revogada). / The listen key was refused.`);
    process.exit(1);
  }
  if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
  return body;
}

/** One delivery to the local receiver: its answer, or why there was none. */
async function forward(delivery) {
  const started = performance.now();
  try {
    const response = await fetch(forwardTo, {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
    const text = (await response.text().catch(() => "")).slice(0, 1024);
    return { status: response.status, durationMs: performance.now() - started, excerpt: text || null };
  } catch (error) {
    return { status: null, durationMs: performance.now() - started, excerpt: String(error.cause?.code ?? error.name ?? "error") };
  }
}

const session = await call("/api/destinations/listen", { method: "POST", body: JSON.stringify({ forwardTo }) }).catch((error) => {
  console.error(`Não foi possível falar com o console em ${consoleUrl}: ${error.message}`);
  process.exit(1);
});
console.log(
  `Pronto! Eventos da conta "${session.account.name}" (${session.account.mode === "live" ? "produção" : "teste"}) → ${forwardTo}`,
);
console.log(`Segredo de assinatura desta sessão / signing secret: ${session.secret}`);
console.log("Ctrl+C para sair.\n");

let backoff = 1_000;
while (!stopping) {
  try {
    const { deliveries } = await call("/api/destinations/listen/deliveries?wait=20");
    backoff = 1_000;
    const results = [];
    for (const delivery of deliveries) {
      const result = await forward(delivery);
      const outcome = result.status === null ? `sem resposta (${result.excerpt})` : `${result.status}`;
      console.log(`${time()}  ${delivery.eventType.padEnd(24)} ${delivery.eventId}  → ${outcome} (${Math.round(result.durationMs)} ms)`);
      results.push({ deliveryId: delivery.deliveryId, attempt: delivery.attempt, roundStart: delivery.roundStart, ...result });
    }
    if (results.length > 0) await call("/api/destinations/listen/deliveries", { method: "POST", body: JSON.stringify({ results }) });
  } catch (error) {
    console.error(`${time()}  console indisponível (${error.message}); tentando de novo em ${backoff / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, backoff));
    backoff = Math.min(backoff * 2, 30_000);
  }
}
