#!/usr/bin/env node
// `npm run demo`: 90 days of realistic sales made through the sandbox gateway's own interface, so
// a newcomer's reports are alive. Expects `npm start` running (the sandbox and the console). It
// only speaks HTTP to the sandbox: the gateway API with the demo producer's keys, the hosted
// checkout pages (visits with UTM values, sales) and the sandbox's control API (payments,
// refunds, chargebacks). Every request carries `x-sandbox-at`, the sandbox's test tool that dates
// it in the past, so the gateway's own timestamps (createdAt, payedAt) spread over the 90 days.
// The console hears of each sale from the sandbox's webhooks to its account's URL and confirms it
// with a lookup, like any other: its tables are never written here.
//
// It also starts eight monthly subscriptions over the 90 days (demoSubscriptions): cards that
// renew, one whose card declines, Pix ones whose renewals wait for payment, some paid and some
// left unpaid. The sandbox renews them on its own clock; the demo only pays the Pix charges.
//
// Pix transfers go through the console's own form (demo-transfers.mjs), when CONSOLE_EMAIL and
// CONSOLE_PASSWORD name its administrator: the console counts only the transfers it sent.
//
// Safe to run again: each São Paulo day ends with a marker charge (identifier `demo-<day>-end`);
// days that have it are skipped, so a second run the same day adds nothing and a run a week later
// adds only the missing days. Nothing else to install: plain Node.js.
import process from "node:process";
import { parseArgs } from "node:util";
import { demoTransfers } from "./demo-transfers.mjs";

const USAGE = `Usage: npm run demo [-- --days 90] [--concurrency 4]

  Needs \`npm start\` running: the sandbox gateway at $SANDBOX_URL (default http://127.0.0.1:4010)
  and the console at $CONSOLE_URL (default http://localhost:3000), connected to the sandbox's
  "demo" producer (keys $DEMO_PUBLIC_KEY / $DEMO_SECRET_KEY, default pk_sandbox_demo / sk_sandbox_demo).
  With $CONSOLE_EMAIL and $CONSOLE_PASSWORD (the administrator \`npm start\` printed) it also sends three
  Pix transfers through the console's form, in Chromium.`;

let options;
try {
  options = parseArgs({
    options: {
      days: { type: "string", default: "90" },
      concurrency: { type: "string", default: "4" },
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
const DAYS = Number(options.days);
const CONCURRENCY = Number(options.concurrency);
if (!Number.isInteger(DAYS) || DAYS < 1 || DAYS > 365 || !Number.isInteger(CONCURRENCY) || CONCURRENCY < 1 || CONCURRENCY > 16) {
  console.error(`--days must be 1 to 365 and --concurrency 1 to 16\n\n${USAGE}`);
  process.exit(2);
}

const SANDBOX_URL = (process.env.SANDBOX_URL ?? "http://127.0.0.1:4010").replace(/\/+$/, "");
const CONSOLE_URL = (process.env.CONSOLE_URL ?? process.env.APP_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const KEYS = {
  "x-public-key": process.env.DEMO_PUBLIC_KEY ?? "pk_sandbox_demo",
  "x-secret-key": process.env.DEMO_SECRET_KEY ?? "sk_sandbox_demo",
};
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** São Paulo has been UTC−3 all year since 2019. */
const SP_OFFSET_MS = 3 * HOUR;

// ---------------------------------------------------------------------------------------------
// The catalogue, the audience and the customers
// ---------------------------------------------------------------------------------------------

const PRODUCTS = [
  {
    externalId: "curso-pix",
    name: "Curso Pix Descomplicado",
    weight: 5,
    offers: [
      { name: "Lançamento", price: 147 },
      { name: "Preço cheio", price: 197 },
    ],
  },
  {
    externalId: "ebook-receitas",
    name: "E-book Receitas Fit",
    weight: 6,
    offers: [
      { name: "E-book", price: 37 },
      { name: "E-book + bônus", price: 47 },
    ],
  },
  { externalId: "planilha-financas", name: "Planilha Finanças Pro", weight: 4, offers: [{ name: "Licença vitalícia", price: 67.9 }] },
  {
    externalId: "mentoria-vendas",
    name: "Mentoria Vendas Online",
    weight: 1,
    offers: [
      { name: "Turma mensal", price: 497 },
      { name: "Anual", price: 997 },
    ],
  },
];

/** Where the visits come from: [weight, source, medium, campaign]; null source = no UTM at all. */
const TRAFFIC = [
  [22, "instagram", "cpc", "lancamento-curso"],
  [10, "instagram", "organic", null],
  [14, "facebook", "cpc", "remarketing-30d"],
  [12, "google", "cpc", "pesquisa-marca"],
  [6, "google", "organic", null],
  [9, "email", "email", "newsletter-semanal"],
  [7, "youtube", "organic", "review-canal"],
  [20, null, null, null],
];

const FIRST = [
  "Ana",
  "Bruno",
  "Carla",
  "Diego",
  "Eduarda",
  "Felipe",
  "Gabriela",
  "Henrique",
  "Isabela",
  "João",
  "Larissa",
  "Marcos",
  "Natália",
  "Otávio",
  "Patrícia",
  "Rafael",
  "Sofia",
  "Thiago",
  "Vanessa",
  "Wagner",
  "Yasmin",
  "Lucas",
  "Mariana",
  "Pedro",
];
const LAST = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Lima",
  "Pereira",
  "Costa",
  "Rodrigues",
  "Almeida",
  "Nascimento",
  "Ferreira",
  "Carvalho",
  "Gomes",
  "Martins",
  "Rocha",
  "Ribeiro",
  "Barbosa",
  "Araújo",
];
const DDD = ["11", "21", "31", "41", "51", "61", "71", "81", "19", "27", "48", "85"];

/** A small seeded generator (mulberry32): the same day gets the same plan on every run. */
function rng(seedText) {
  let seed = 2166136261;
  for (const ch of seedText) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (random, list) => list[Math.floor(random() * list.length)];
const weighted = (random, list, weightOf) => {
  let roll = random() * list.reduce((sum, item) => sum + weightOf(item), 0);
  for (const item of list) if ((roll -= weightOf(item)) < 0) return item;
  return list.at(-1);
};
/** A log-normal draw around `median` (spread: the σ of the log). */
const logNormal = (random, median, spread) => {
  const u = Math.max(random(), 1e-9);
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return median * Math.exp(spread * z);
};

function cpf(random) {
  const digits = Array.from({ length: 9 }, () => Math.floor(random() * 10));
  if (digits.every((d) => d === digits[0])) digits[0] = (digits[0] + 1) % 10;
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join("");
}

function customer(random) {
  const first = pick(random, FIRST);
  const last = pick(random, LAST);
  const slug = `${first}.${last}`
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  return {
    name: `${first} ${last}`,
    email: `${slug}${Math.floor(random() * 900 + 100)}@example.com`,
    phone: `${pick(random, DDD)}9${String(Math.floor(random() * 1e8)).padStart(8, "0")}`,
    document: cpf(random),
  };
}

// ---------------------------------------------------------------------------------------------
// One day's plan
// ---------------------------------------------------------------------------------------------

/** YYYY-MM-DD of the São Paulo day `n` days before today. */
function spDay(now, daysBack) {
  return new Date(now - SP_OFFSET_MS - daysBack * DAY).toISOString().slice(0, 10);
}
const dayStart = (day) => Date.parse(`${day}T00:00:00-03:00`);

/** Minutes after midnight: quiet at night, a lunch bump and an evening peak. */
const HOURLY = [1, 0.5, 0.3, 0.2, 0.2, 0.4, 1, 2, 3.5, 4.5, 5, 5.5, 6.5, 6, 5.5, 5, 5, 5.5, 6.5, 8, 9, 8, 5.5, 2.5];
function timeOfDay(random) {
  const [, hour] = weighted(
    random,
    HOURLY.map((weight, h) => [weight, h]),
    ([weight]) => weight,
  );
  return (hour * 60 + random() * 60) * MINUTE;
}

/**
 * The sales of one day, deterministic for the day: volume grows over the period (about 5 a day
 * at its start, 16 at its end), weekends are quieter, and each sale's fate (paid, unpaid,
 * declined, refunded, charged back) and timing are drawn here.
 */
function planDay(day, index, total) {
  const random = rng(`demo:${day}`);
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  const trend = 5 + (11 * index) / Math.max(1, total - 1);
  const rhythm = weekday === 0 ? 0.55 : weekday === 6 ? 0.7 : weekday === 1 ? 1.1 : 1;
  const count = Math.max(1, Math.round(trend * rhythm * (0.75 + random() * 0.5)));
  const sales = [];
  for (let n = 0; n < count; n++) {
    const product = weighted(random, PRODUCTS, (p) => p.weight);
    const offer = pick(random, product.offers);
    const viaCheckout = random() < 0.86;
    const traffic = viaCheckout ? weighted(random, TRAFFIC, (t) => t[0]) : null;
    const method = viaCheckout
      ? weighted(
          random,
          [
            ["PIX", 55],
            ["CREDIT_CARD", 30],
            ["BOLETO", 15],
          ],
          (m) => m[1],
        )[0]
      : random() < 0.75
        ? "PIX"
        : "BOLETO";
    const createdAt = dayStart(day) + timeOfDay(random);
    const sale = {
      identifier: `demo-${day.replaceAll("-", "")}-${String(n + 1).padStart(3, "0")}`,
      channel: viaCheckout ? "checkout" : "api",
      product,
      offer,
      traffic,
      method,
      customer: customer(random),
      createdAt,
      paidAt: null,
      declined: false,
      cancelAt: null,
      refundAt: null,
      chargebackAt: null,
    };
    if (method === "PIX") {
      // Most pay within minutes; some take hours; about one in five never pays.
      if (random() < 0.8) sale.paidAt = createdAt + Math.min(logNormal(random, 3 * MINUTE, 1.3), 20 * HOUR) + 20_000;
      else if (random() < 0.6) sale.cancelAt = createdAt + DAY; // expired at the gateway a day later
    } else if (method === "BOLETO") {
      // Paid on a later working day (or never): compensation takes a day or two.
      if (random() < 0.62) sale.paidAt = createdAt + (0.6 + random() * 2.4) * DAY;
    } else {
      sale.declined = random() < 0.14;
      sale.declineCard = random() < 0.5 ? "4000000000000002" : "4000000000009995";
      if (!sale.declined) sale.paidAt = createdAt + 2_000;
    }
    if (sale.paidAt) {
      const roll = random();
      if (roll < 0.035) sale.refundAt = sale.paidAt + (1 + random() * 9) * DAY;
      else if (method === "CREDIT_CARD" && roll < 0.06) sale.chargebackAt = sale.paidAt + (15 + random() * 25) * DAY;
    }
    sales.push(sale);
  }
  sales.sort((a, b) => a.createdAt - b.createdAt);
  return sales;
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

const iso = (ms) => new Date(ms).toISOString();

async function call(method, path, { body, at, form, okStatuses = [200] } = {}) {
  const headers = { ...KEYS };
  if (at !== undefined) headers["x-sandbox-at"] = iso(at);
  let payload;
  if (form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  for (let attempt = 1; ; attempt++) {
    let res;
    try {
      res = await fetch(`${SANDBOX_URL}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      if (attempt < 4) {
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        continue;
      }
      throw new Error(`${method} ${path}: ${error.message}`);
    }
    const text = await res.text();
    if ((res.status === 429 || res.status >= 500) && attempt < 4) {
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      continue;
    }
    if (!okStatuses.includes(res.status)) {
      let message = text.slice(0, 300);
      try {
        message = JSON.parse(text).message ?? message;
      } catch {
        // an HTML page: its text is the message
      }
      const error = new Error(`${method} ${path} → ${res.status}: ${message}`);
      error.status = res.status;
      throw error;
    }
    const type = res.headers.get("content-type") ?? "";
    return { status: res.status, json: type.includes("json") && text ? JSON.parse(text) : null, text };
  }
}

/** A control transition; 409 (already there: an interrupted run repeated) is fine. */
async function transition(transactionId, type, at) {
  try {
    await call("POST", `/sandbox/v1/transactions/${encodeURIComponent(transactionId)}/events`, { body: { type }, at });
  } catch (error) {
    if (error.status !== 409) throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Making a sale
// ---------------------------------------------------------------------------------------------

const checkouts = new Map();
let sandboxPublicUrl = SANDBOX_URL;

/** The hosted checkout of a product's offer (made once per run through the gateway API). */
async function checkoutFor(product, offer) {
  const key = `${product.externalId}:${offer.name}`;
  if (!checkouts.has(key)) {
    checkouts.set(
      key,
      call("POST", "/api/v1/gateway/checkout", {
        body: {
          product: {
            externalId: product.externalId,
            name: product.name,
            offer: { name: offer.name, price: offer.price, offerType: "ONE_TIME", currency: "BRL", lang: "pt-BR" },
          },
          settings: { paymentMethods: ["PIX", "CREDIT_CARD", "BOLETO"], acceptedDocs: ["CPF"], colors: { primary: "#0f766e" } },
        },
      }).then(({ json }) => {
        const url = new URL(json.checkoutUrl);
        sandboxPublicUrl = url.origin;
        return url.pathname;
      }),
    );
  }
  return checkouts.get(key);
}

/** A buyer's visit to the hosted checkout (with the campaign's UTM values) and the sale it ends in. */
async function checkoutSale(sale, { awaitRecent = false } = {}) {
  const path = await checkoutFor(sale.product, sale.offer);
  const [, source, medium, campaign] = sale.traffic ?? [];
  const query = new URLSearchParams();
  if (source) query.set("utm_source", source);
  if (medium) query.set("utm_medium", medium);
  if (campaign) query.set("utm_campaign", campaign);
  const search = query.size > 0 ? `?${query}` : "";
  await call("GET", `${path}${search}`); // the visit: the page the buyer saw
  const card = sale.method === "CREDIT_CARD" ? (sale.declined ? sale.declineCard : "4111111111111111") : "";
  const { text } = await call("POST", path, {
    at: sale.createdAt,
    form: {
      visitedUrl: `${sandboxPublicUrl}${path}${search}`,
      name: sale.customer.name,
      email: sale.customer.email,
      phone: sale.customer.phone,
      document: sale.customer.document,
      method: sale.method,
      ...(card ? { cardNumber: card } : {}),
      // Pix and boleto are issued, then paid (or not) by the buyer later.
      ...(sale.method === "CREDIT_CARD" ? {} : { awaitPayment: "1" }),
    },
  });
  const id = /<dd class="mono">([0-9a-f-]{36})<\/dd>/.exec(text)?.[1];
  if (!id) throw new Error(`checkout sale on ${path}: no transaction id in the answer${awaitRecent ? " (recent)" : ""}`);
  return id;
}

/** A charge the producer sent by hand (a WhatsApp sale): gateway API, no campaign. */
async function apiSale(sale) {
  const body = {
    identifier: sale.identifier,
    amount: sale.offer.price,
    client: sale.customer,
    products: [{ id: sale.product.externalId, name: sale.product.name, price: sale.offer.price, quantity: 1 }],
  };
  const path = sale.method === "BOLETO" ? "/api/v1/gateway/boleto/receive" : "/api/v1/gateway/pix/receive";
  const { json } = await call("POST", path, { body, at: sale.createdAt });
  return json.transactionId;
}

const tally = { byMethod: {}, paidCents: 0, transactions: 0, checkoutVisits: 0 };
function count(method, outcome) {
  tally.byMethod[method] ??= {};
  tally.byMethod[method][outcome] = (tally.byMethod[method][outcome] ?? 0) + 1;
}

async function makeSale(sale, now) {
  const id = sale.channel === "checkout" ? await checkoutSale(sale) : await apiSale(sale);
  if (sale.channel === "checkout") tally.checkoutVisits += 1;
  tally.transactions += 1;
  const due = (at) => at !== null && at <= now - MINUTE;
  let outcome = "awaiting payment";
  if (sale.method === "CREDIT_CARD") {
    outcome = sale.declined ? "declined" : "paid";
  } else if (due(sale.paidAt)) {
    await transition(id, "pay", sale.paidAt);
    outcome = "paid";
  } else if (due(sale.cancelAt)) {
    await transition(id, "cancel", sale.cancelAt);
    outcome = "expired (canceled)";
  }
  if (outcome === "paid") {
    tally.paidCents += Math.round(sale.offer.price * 100);
    if (due(sale.refundAt)) {
      await transition(id, "refund", sale.refundAt);
      outcome = "paid, then refunded";
    } else if (due(sale.chargebackAt)) {
      await transition(id, "chargeback", sale.chargebackAt);
      outcome = "paid, then charged back";
    }
  }
  count(sale.method, outcome);
}

// ---------------------------------------------------------------------------------------------
// Subscriptions
// ---------------------------------------------------------------------------------------------

const PLANS = {
  clube: { id: "clube-receitas-fit", name: "Clube Receitas Fit (mensal)", price: 29.9 },
  mentoria: { id: "mentoria-vendas-mensal", name: "Mentoria Vendas Online (mensal)", price: 97 },
};

/**
 * The demo's monthly subscriptions: `back` = how far into the run's days they started (a
 * fraction of --days). Cards renew on their own (the sandbox's test cards decide: 4000000000009995
 * declines, after a month of trial); a Pix renewal is a charge waiting to be paid, and `pays`
 * says which the customer paid (`n` = charge number): some always, some stop paying (churn).
 */
const SUBSCRIPTIONS = [
  { key: "card-1", method: "card", plan: "mentoria", back: 0.96, card: "4111111111111111" },
  { key: "card-2", method: "card", plan: "clube", back: 0.72, card: "4242424242424242" },
  { key: "card-3", method: "card", plan: "mentoria", back: 0.45, card: "4111111111111111" },
  { key: "card-declined", method: "card", plan: "mentoria", back: 0.9, card: "4000000000009995", firstChargeIn: 1 },
  { key: "pix-1", method: "pix", plan: "clube", back: 0.98, pays: () => true },
  { key: "pix-2", method: "pix", plan: "clube", back: 0.8, pays: (n, random) => n === 1 || random() < 0.7 },
  { key: "pix-3", method: "pix", plan: "mentoria", back: 0.76, pays: (n) => n === 1 },
  { key: "pix-4", method: "pix", plan: "clube", back: 0.55, pays: (n) => n <= 2 },
];

/**
 * Creates the subscriptions (dated with x-sandbox-at at their start; identifiers `demo-sub-<key>`,
 * so a second run replays them), lets the sandbox catch up the renewals that fell due since
 * (`clock/advance {"days":0}`), then pays the Pix charges the customers paid, each a while after
 * it was made. Returns a line for the summary.
 */
async function demoSubscriptions(now) {
  const totals = { cardPaid: 0, cardFailed: 0, pixPaid: 0, pixUnpaid: 0 };
  const subs = [];
  for (const plan of SUBSCRIPTIONS) {
    const random = rng(`demo:sub:${plan.key}`);
    const day = spDay(now, Math.floor(plan.back * (DAYS - 1)));
    const startAt = Math.min(dayStart(day) + (9 + random() * 11) * HOUR, now - 5 * MINUTE);
    const product = PLANS[plan.plan];
    const body = {
      identifier: `demo-sub-${plan.key}`,
      amount: product.price,
      client: customer(random),
      product,
      subscription: { periodicityType: "MONTHS", periodicity: 1, ...(plan.firstChargeIn ? { firstChargeIn: plan.firstChargeIn } : {}) },
    };
    if (plan.method === "card") {
      const { name } = body.client;
      body.clientIp = `200.${10 + Math.floor(random() * 200)}.${Math.floor(random() * 250)}.${1 + Math.floor(random() * 250)}`;
      body.card = { number: plan.card, owner: name.toUpperCase(), expiresAt: "2031-12", cvv: "123" };
    }
    await call("POST", `/api/v1/gateway/${plan.method}/subscription`, { body, at: startAt });
    subs.push({ plan, identifier: body.identifier, random });
  }
  await call("POST", "/sandbox/v1/clock/advance", { body: { days: 0 } });
  for (const { plan, identifier, random } of subs) {
    for (let n = 1; n <= 24; n++) {
      const { status, json } = await call(
        "GET",
        `/api/v1/gateway/transactions?clientIdentifier=${encodeURIComponent(`${identifier}-${n}`)}`,
        {
          okStatuses: [200, 404],
        },
      );
      if (status === 404) break;
      const paidAfter = Math.min(logNormal(random, 3 * HOUR, 1.2), 2 * DAY);
      const pays = plan.method === "pix" && plan.pays(n, random);
      if (plan.method === "card") {
        if (json.status === "COMPLETED") totals.cardPaid += 1;
        else totals.cardFailed += 1;
        continue;
      }
      const paidAt = Date.parse(json.createdAt) + paidAfter;
      if (json.status === "PENDING" && pays && paidAt <= now - MINUTE) {
        await transition(json.id, "pay", paidAt);
        totals.pixPaid += 1;
      } else if (json.status === "COMPLETED") totals.pixPaid += 1;
      else totals.pixUnpaid += 1;
    }
  }
  const cards = SUBSCRIPTIONS.filter((p) => p.method === "card").length;
  return (
    `${cards} card subscriptions (${totals.cardPaid} charges paid, ${totals.cardFailed} declined), ` +
    `${SUBSCRIPTIONS.length - cards} Pix subscriptions (${totals.pixPaid} charges paid, ${totals.pixUnpaid} awaiting payment)`
  );
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

function die(message) {
  console.error(`[demo] ${message}`);
  process.exit(1);
}

async function reachable(url) {
  try {
    const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
    return res.status < 500;
  } catch {
    return false;
  }
}

async function preflight() {
  if (!(await reachable(`${SANDBOX_URL}/health`))) {
    die(
      `the sandbox gateway does not answer at ${SANDBOX_URL}. Start everything with \`npm start\` in another terminal (or set SANDBOX_URL), then run \`npm run demo\` again.`,
    );
  }
  if (!(await reachable(`${CONSOLE_URL}/login`))) {
    die(
      `the console does not answer at ${CONSOLE_URL}. Start it with \`npm start\` (it may still be building: wait for "[console] ready"), or set CONSOLE_URL.`,
    );
  }
  let settings;
  try {
    settings = (await call("GET", "/sandbox/v1/settings")).json;
  } catch (error) {
    die(`the sandbox refused the demo producer's keys (${error.message}).`);
  }
  const webhookUrl = settings.webhookUrl;
  if (!webhookUrl) {
    die(
      `the sandbox's demo producer has no webhook URL, so the console would never hear of the sales. The console sets it when it starts connected to this sandbox (\`npm start\` without GATEWAY_BASE_URL); restart it and look for "[console] the sandbox sends this account's checkout sales to …".`,
    );
  }
  if (new URL(webhookUrl).port !== new URL(CONSOLE_URL).port) {
    console.warn(`[demo] warning: the sandbox sends notifications to ${webhookUrl}, not to ${CONSOLE_URL}: the sales go to that console.`);
  }
  return { webhookUrl, accountId: /\/api\/webhooks\/([^/?#]+)/.exec(webhookUrl)?.[1] ?? null };
}

/** Days whose marker charge the gateway already has (a previous run made them). */
async function daysDone(days) {
  const done = new Set();
  await pool(days, 8, async (day) => {
    const res = await call("GET", `/api/v1/gateway/transactions?clientIdentifier=${encodeURIComponent(markerOf(day))}`, {
      okStatuses: [200, 404],
    });
    if (res.status === 200) done.add(day);
  });
  return done;
}
const markerOf = (day) => `demo-${day.replaceAll("-", "")}-end`;

async function pool(items, size, work) {
  let next = 0;
  const workers = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(workers);
}

/**
 * Waits until the sandbox has delivered every notification to the console (at most
 * DEMO_WAIT_SECONDS, default 240), printing the backlog every 10 s.
 */
async function waitForDeliveries() {
  const deadline = Date.now() + Number(process.env.DEMO_WAIT_SECONDS ?? 240) * 1000;
  let lastPrint = 0;
  for (;;) {
    const { json } = await call("GET", "/sandbox/v1/deliveries/summary");
    if (json.pending === 0 || Date.now() > deadline) return json;
    if (Date.now() - lastPrint >= 10_000) {
      console.log(`[demo] ${json.pending} notifications still on their way to the console (${json.delivered} delivered)`);
      lastPrint = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

const brl = (cents) => (cents / 100).toLocaleString("pt-BR", { style: "currency", currency: "BRL" });

async function main() {
  const startedAt = Date.now();
  const { webhookUrl, accountId } = await preflight();
  const now = Date.now();
  const days = Array.from({ length: DAYS }, (_, i) => spDay(now, DAYS - 1 - i));
  console.log(`[demo] sandbox ${SANDBOX_URL}, console ${CONSOLE_URL}; notifications go to ${webhookUrl}`);
  const done = await daysDone(days);
  console.log(`[demo] subscriptions: ${await demoSubscriptions(now)}`);
  const todo = days.filter((day) => !done.has(day));
  if (todo.length === 0) {
    console.log(`[demo] already ran: all ${DAYS} days from ${days[0]} to ${days.at(-1)} are in the gateway. No sales added.`);
    console.log(`[demo] ${await transfersOf(accountId)}`);
    return;
  }
  if (done.size > 0) console.log(`[demo] ${done.size} of ${DAYS} days already made by an earlier run: adding the ${todo.length} missing`);
  console.log(`[demo] making ${todo.length} days of sales (${todo[0]} … ${todo.at(-1)})…`);

  let finished = 0;
  await pool(todo, CONCURRENCY, async (day) => {
    const index = days.indexOf(day);
    const sales = planDay(day, index, DAYS).filter((sale) => sale.createdAt <= now - 2 * MINUTE);
    for (const sale of sales) await makeSale(sale, now);
    if (day === days.at(-1)) {
      // A few Pix from the last hour the buyers have not paid yet: the recovery list's newest rows.
      const random = rng(`demo:recent:${now}`);
      for (const minutesAgo of [52, 38, 21]) {
        const product = pick(random, PRODUCTS);
        await makeSale(
          {
            identifier: null,
            channel: "checkout",
            product,
            offer: pick(random, product.offers),
            traffic: weighted(random, TRAFFIC.slice(0, -1), (t) => t[0]),
            method: "PIX",
            customer: customer(random),
            createdAt: now - minutesAgo * MINUTE,
            paidAt: null,
            cancelAt: null,
            refundAt: null,
            chargebackAt: null,
          },
          now,
        );
      }
    }
    // The day's marker, last: a Pix sent by hand and paid a few minutes later.
    const random = rng(`demo:${day}:end`);
    const markerAt = Math.max(dayStart(day), Math.min(dayStart(day) + (21 + random() * 2) * HOUR, now - 10 * MINUTE));
    await makeSale(
      {
        identifier: markerOf(day),
        channel: "api",
        product: PRODUCTS[1],
        offer: PRODUCTS[1].offers[0],
        traffic: null,
        method: "PIX",
        customer: customer(random),
        createdAt: markerAt,
        paidAt: markerAt + 4 * MINUTE,
        cancelAt: null,
        refundAt: null,
        chargebackAt: null,
      },
      now,
    );
    finished += 1;
    if (finished % 10 === 0 || finished === todo.length) {
      console.log(
        `[demo] ${String(finished).padStart(3)}/${todo.length} days · ${tally.transactions} transactions · ${brl(tally.paidCents)} paid · ${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
      );
    }
  });

  console.log("[demo] waiting for the sandbox to deliver its notifications to the console…");
  const { pending, failed } = await waitForDeliveries();

  console.log("");
  console.log(
    `[demo] done in ${((Date.now() - startedAt) / 1000).toFixed(0)} s: ${tally.transactions} transactions over ${todo.length} days (${tally.checkoutVisits} through the hosted checkout)`,
  );
  const labels = { PIX: "Pix", CREDIT_CARD: "Card", BOLETO: "Boleto" };
  for (const [method, outcomes] of Object.entries(tally.byMethod)) {
    const total = Object.values(outcomes).reduce((a, b) => a + b, 0);
    const parts = Object.entries(outcomes)
      .sort((a, b) => b[1] - a[1])
      .map(([outcome, n]) => `${n} ${outcome}`)
      .join(", ");
    console.log(`  ${(labels[method] ?? method).padEnd(7)} ${String(total).padStart(5)}: ${parts}`);
  }
  console.log(`  Paid total ${brl(tally.paidCents)} (before refunds and chargebacks)`);
  if (pending > 0) {
    console.warn(
      `[demo] ${pending} notifications are still on their way: the sandbox keeps delivering them (the reports fill up as they arrive).`,
    );
  }
  if (failed > 0)
    console.warn(`[demo] ${failed} notifications could not be delivered (see the sandbox's deliveries): was the console down?`);
  console.log(`[demo] ${await transfersOf(accountId)}`);
  const reports = accountId ? `${CONSOLE_URL}/${accountId}/transactions` : `${CONSOLE_URL}`;
  console.log(`[demo] the console confirms each sale with the gateway within a few seconds; see ${reports}`);
}

function transfersOf(accountId) {
  return demoTransfers({
    consoleUrl: CONSOLE_URL,
    accountId,
    email: process.env.CONSOLE_EMAIL,
    password: process.env.CONSOLE_PASSWORD,
    control: (method, path) => call(method, path),
  });
}

main().catch((error) => {
  console.error(`[demo] failed: ${error.message}`);
  process.exit(1);
});
