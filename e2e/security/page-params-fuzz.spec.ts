import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { APIRequestContext } from "@playwright/test";
import { createUserAsAdmin, expect, newClientContext, signInWithApi, test } from "../fixtures/test";
import { demoAccountId } from "../fixtures/sandbox";
import { notifyTransactions } from "../transactions/helpers";
import { expectResult, fillCustomer, openChargeForm, submit } from "../fixtures/charges";

/**
 * Every page's address under fuzzing (issue 26): search parameters and dynamic segments that no
 * form would send, from a signed-in administrator and from lesser roles. No answer may be a 5xx
 * and no body may show a stack or a server path; a bad filter is named on the page, a malformed id
 * is not found.
 */

const CASES = Number(process.env.PAGE_FUZZ_CASES ?? 2_000);
const CONCURRENCY = Number(process.env.PAGE_FUZZ_CONCURRENCY ?? 6);
const SEED = Number(process.env.PAGE_FUZZ_SEED ?? Date.now() % 2_147_483_647);

// A stack frame, a module path or a database error in a body is a leak (the same rule as lib/__tests__/routes-fuzz.test.ts).
const INTERNALS =
  /\bat [\w.<>]+ \([^)]*:\d+:\d+\)|\/work\/|\bFailed query\b|\bPostgresError\b|\binvalid byte sequence\b|\bsyntax error at or near\b|\bTypeError: |\bRangeError: |\bURIError: /;

type Ids = { account: string; ledger: string; event: string };
/** A page: its path (segments filled from ids or fuzzed) and the query keys it reads. */
type PageSpec = { path: (seg: (real: string) => string) => string; keys: string[] };

const PAGES = (ids: Ids): PageSpec[] => {
  const a = (seg: (real: string) => string) => seg(ids.account);
  const none = (path: string): PageSpec => ({ path: () => path, keys: [] });
  const ledgerKeys = ["status", "method", "from", "to", "min", "max", "q", "cursor", "view"];
  return [
    { path: (seg) => `/${a(seg)}/transactions`, keys: ledgerKeys },
    { path: (seg) => `/${a(seg)}/transactions/${seg(ids.ledger)}`, keys: [] },
    { path: (seg) => `/${a(seg)}/transactions/unconfirmed`, keys: ["state"] },
    { path: (seg) => `/${a(seg)}/charges/${seg(ids.ledger)}`, keys: [] },
    { path: (seg) => `/${a(seg)}/transfers/${seg(randomUUID())}`, keys: [] },
    { path: (seg) => `/${a(seg)}/checkout-links/${seg(randomUUID())}`, keys: [] },
    { path: (seg) => `/${a(seg)}`, keys: [] },
    { path: (seg) => `/${a(seg)}/webhooks`, keys: [] },
    { path: (seg) => `/${a(seg)}/refunds`, keys: [] },
    { path: (seg) => `/${a(seg)}/transfers`, keys: [] },
    { path: (seg) => `/${a(seg)}/payouts`, keys: [] },
    { path: (seg) => `/${a(seg)}/payouts/new`, keys: [] },
    { path: (seg) => `/${a(seg)}/payouts/${seg(randomUUID())}`, keys: ["show", "page"] },
    { path: (seg) => `/${a(seg)}/payouts/template/${seg("csv")}`, keys: [] },
    { path: (seg) => `/${a(seg)}/payouts/${seg(randomUUID())}/results/${seg("xlsx")}`, keys: [] },
    { path: (seg) => `/${a(seg)}/checkout-links`, keys: [] },
    { path: (seg) => `/${a(seg)}/sales`, keys: ["period", "from", "to"] },
    { path: (seg) => `/${a(seg)}/sales/origin`, keys: ["period", "from", "to", "dimension"] },
    { path: (seg) => `/${a(seg)}/sales/recovery`, keys: ["cursor"] },
    { path: (seg) => `/${a(seg)}/sales/export/${seg("origin")}`, keys: ["period", "from", "to", "dimension"] },
    { path: (seg) => `/${a(seg)}/balance`, keys: ["from", "to", "kind", "cursor", "month"] },
    { path: (seg) => `/${a(seg)}/balance/export/${seg("csv")}`, keys: ["from", "to", "kind"] },
    { path: (seg) => `/${a(seg)}/subscriptions`, keys: ["state", "method", "product", "q"] },
    { path: (seg) => `/${a(seg)}/subscriptions/export`, keys: ["state", "method", "product", "q"] },
    { path: (seg) => `/${a(seg)}/subscriptions/${seg(randomUUID())}`, keys: [] },
    { path: (seg) => `/${a(seg)}/lookup`, keys: [] },
    { path: (seg) => `/${a(seg)}/producer`, keys: [] },
    // The old account-less addresses: one redirect, or not found.
    { path: () => "/transactions", keys: ledgerKeys },
    { path: (seg) => `/transactions/${seg(ids.ledger)}`, keys: [] },
    { path: () => "/admin/audit", keys: ["email", "account", "action", "from", "to", "cursor"] },
    { path: () => "/activity", keys: ["account", "event", "method"] },
    { path: (seg) => `/activity/${seg(ids.event)}`, keys: [] },
    { path: (seg) => `/accounts/${seg(ids.account)}`, keys: [] },
    { path: (seg) => `/charges/${seg(ids.ledger)}`, keys: [] },
    { path: (seg) => `/transfers/${seg(randomUUID())}`, keys: [] },
    { path: (seg) => `/checkout-links/${seg(randomUUID())}`, keys: [] },
    { path: (seg) => `/${a(seg)}/destinations/${seg(randomUUID())}`, keys: ["before", "event"] },
    { path: (seg) => `/${a(seg)}/destinations`, keys: [] },
    { path: (seg) => `/${a(seg)}/destinations/new`, keys: [] },
    { path: (seg) => `/${a(seg)}/charges/new`, keys: [] },
    { path: (seg) => `/${a(seg)}/charges/new/${seg("pix")}`, keys: [] },
    { path: (seg) => `/${a(seg)}/refunds/new`, keys: ["transaction"] },
    { path: (seg) => `/${a(seg)}/transfers/new`, keys: [] },
    { path: (seg) => `/${a(seg)}/checkout-links/new`, keys: [] },
    { path: (seg) => `/charges/new/${seg("boleto")}`, keys: [] },
    none("/charges/new"),
    none("/refunds/new"),
    none("/transfers/new"),
    none("/checkout-links/new"),
    none("/"),
    none("/admin/users"),
    none("/webhooks"),
    none("/refunds"),
    none("/transfers"),
    none("/checkout-links"),
    none("/destinations"),
    none("/lookup"),
    none("/producer"),
    none("/profile"),
    none("/accounts"),
  ];
};

/** Values no form sends: NUL and controls, absurd dates, overlong text, numbers out of range, markup. */
const nastyValue = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\u001b[31m",
    "line\nbreak",
    "0000-01-01",
    "99999-12-31",
    "275760-09-13",
    "2026-02-30",
    "1999-12-31",
    "2026-13-01",
    "x".repeat(513),
    "é".repeat(300),
    "9".repeat(400),
    "1e309",
    "-1",
    "NaN",
    "Infinity",
    "0",
    "'; drop table users; --",
    "%",
    "%%",
    "%zz",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "PIX",
    "OK",
    "PENDING",
    "unconfirmed",
    "msg_00000000000000000000000000000000",
    "12",
    "WyIyMDI2LTAxLTAxIDAwOjAwOjAwKzAwIiwieCJd",
    "WyIwMDAwLTAxLTAxIDAwOjAwOjAwKzAwIiwiXHUwMDAwIl0",
    "\u{1F4B8}",
    "\uFEFF",
    " ",
    "",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.integer().map(String),
);

/** Dynamic segments: the real id, a random UUID, or anything that cannot be an id (malformed escapes included). */
const segmentKind = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: "real" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "uuid" as const }) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        "%00",
        "%E0%A4%A",
        "%FF",
        "%C3%28",
        "%2e%2e",
        "a%2Fb",
        "x".repeat(300),
        "NOT-A-UUID",
        "00000000-0000-0000-0000-00000000000G",
      )
      .map((raw) => ({ kind: "raw" as const, raw })),
  },
  { weight: 3, arbitrary: nastyValue.map((value) => ({ kind: "value" as const, value })) },
);

function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80"; // a lone surrogate: sent as the invalid UTF-8 it would be
  }
}

const caseArb = (pageCount: number) =>
  fc.record({
    page: fc.integer({ min: 0, max: pageCount - 1 }),
    segment: segmentKind,
    params: fc.array(
      fc.record({
        known: fc.boolean(),
        key: fc.oneof(fc.constantFrom("a", "utm_source", "__proto__", "constructor", "x\u0000"), fc.string({ maxLength: 8 })),
        index: fc.nat(),
        value: nastyValue,
        repeat: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
  });

type Case = ReturnType<typeof caseArb> extends fc.Arbitrary<infer T> ? T : never;

function urlOf(spec: PageSpec, c: Case): string {
  const seg = (real: string) => {
    switch (c.segment.kind) {
      case "real":
        return encode(real);
      case "uuid":
        return randomUUID();
      case "raw":
        return c.segment.raw;
      case "value":
        return encode(c.segment.value) || "x";
    }
  };
  const parts: string[] = [];
  for (const p of c.params) {
    const key = p.known && spec.keys.length > 0 ? spec.keys[p.index % spec.keys.length]! : p.key;
    const pair = `${encode(key)}=${encode(p.value)}`;
    parts.push(pair);
    if (p.repeat) parts.push(`${encode(key)}=${encode(p.value.slice(0, 5))}1`);
  }
  return `${spec.path(seg)}${parts.length ? `?${parts.join("&")}` : ""}`;
}

async function signedInRequest(browser: import("@playwright/test").Browser, credentials: { email: string; password: string }) {
  const context = await newClientContext(browser);
  const response = await signInWithApi(context.request, credentials);
  expect(response.status(), "sign-in").toBeLessThan(400);
  return context;
}

// Thousands of requests: a trace would record every one of them.
test.use({ trace: "off" });

test.describe("page parameters under fuzzing", () => {
  test.describe.configure({ timeout: 300_000 });

  test("bad filters are named on the page and it renders; a malformed id is not found", async ({ adminPage }) => {
    const accountId = await demoAccountId(adminPage);
    const request = adminPage.request;
    for (const [path, line] of [
      ["/admin/audit?from=0000-01-01", "Filtro inválido: data inicial"],
      ["/admin/audit?email=%00", "Filtro inválido: e-mail"],
      ["/admin/audit?to=99999-12-31&account=nope", "Filtro inválido: data final"],
      [`/${accountId}/transactions?from=0000-01-01&min=abc&status=a&status=b`, "Filtro inválido: valor mínimo"],
      [`/${accountId}/transactions?cursor=WyIwMDAwLTAxLTAxIDAwOjAwOjAwKzAwIiwiXHUwMDAwIl0`, "Filtro inválido: página"],
      ["/activity?event=%00&account=nope", "Filtro inválido: conta"],
    ] as const) {
      const response = await request.get(path);
      const body = await response.text();
      expect(response.status(), path).toBe(200);
      expect(body, path).toContain(line);
    }
    await adminPage.goto(`/${accountId}/transactions?from=99999-01-01&q=%00`);
    const alert = adminPage.getByTestId("params-problems");
    await expect(alert).toContainText("Filtro inválido: data inicial — use uma data AAAA-MM-DD entre 2000 e 2100.");
    await expect(alert).toContainText("Filtro inválido: busca — contém caracteres de controle.");
    await expect(adminPage.getByRole("heading", { name: "Transações" })).toBeVisible();
    for (const path of [
      "/transactions/not-a-uuid",
      "/transactions/%00",
      `/${accountId}/transactions/not-a-uuid`,
      `/${accountId}/charges/%00`,
      `/${accountId}/transfers/${"x".repeat(300)}`,
      `/${accountId}/payouts/${"x".repeat(300)}`,
      `/${accountId}/payouts/not-a-uuid/results/csv`,
      "/activity/%E0%A4%A",
      "/accounts/x%00",
      "/%00/charges/new",
      "/nope/destinations",
      "/nope/transactions",
    ]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(404);
    }
    // The webhook receiver skips the proxy, except for a path with an escape: one Next.js cannot decode was its 500.
    for (const path of ["/api/webhooks/%E0%A4%A", `/api/webhooks/${accountId}/%E0%A4%A`, "/api/feed/%E0%A4%A"]) {
      const response = await request.post(path, { data: {}, maxRedirects: 0 });
      expect(response.status(), path).toBe(404);
      expect(await response.json(), path).toEqual({ error: "not_found" });
    }
  });

  test(`${CASES} generated addresses over every page, as admin, operator and viewer: no 5xx, no internals`, async ({
    adminPage,
    browser,
  }) => {
    const accountId = await demoAccountId(adminPage);
    // Real records behind the ids: a Pix charge made in the console (its result page and ledger row) and a feed event.
    await openChargeForm(adminPage, "pix", accountId);
    await adminPage.getByLabel("Valor (R$)").fill("12,34");
    await fillCustomer(adminPage);
    await submit(adminPage);
    await expectResult(adminPage);
    const ledger = /\/charges\/([0-9a-f-]{36})$/.exec(adminPage.url())![1]!;
    await notifyTransactions(adminPage.request, accountId, [
      { status: "PENDING", method: "PIX", amount: 12.34, name: "Fuzz Cliente", email: "fuzz@example.com" },
    ]);
    const feed = await (await adminPage.request.get("/activity")).text();
    const event = /\/activity\/([0-9a-f-]{36})/.exec(feed)?.[1];
    expect(event, "a feed event to open").toBeTruthy();
    const ids: Ids = { account: accountId, ledger, event: event! };

    const operator = await createUserAsAdmin(adminPage, { role: "operator" });
    const viewer = await createUserAsAdmin(adminPage, { role: "viewer" });
    const contexts = [await signedInRequest(browser, operator), await signedInRequest(browser, viewer)];
    const requesters: { role: string; request: APIRequestContext }[] = [
      { role: "admin", request: adminPage.request },
      { role: "operator", request: contexts[0]!.request },
      { role: "viewer", request: contexts[1]!.request },
    ];

    const pages = PAGES(ids);
    const cases = fc.sample(caseArb(pages.length), { numRuns: CASES, seed: SEED });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let served = 0;
    let fiveHundreds = 0;
    let next = 0;
    const started = Date.now();
    async function worker() {
      for (;;) {
        const index = next++;
        if (index >= cases.length) return;
        const c = cases[index]!;
        const { role, request } = requesters[index % requesters.length]!;
        const url = urlOf(pages[c.page]!, c);
        const response = await request.get(url, { maxRedirects: 3, timeout: 60_000 });
        const body = await response.text();
        served++;
        statuses.set(response.status(), (statuses.get(response.status()) ?? 0) + 1);
        if (response.status() >= 500) fiveHundreds++;
        const leak = INTERNALS.exec(body)?.[0];
        if (response.status() >= 500 || leak)
          failures.push(`${role} GET ${url.slice(0, 200)} -> ${response.status()}${leak ? ` leaks ${JSON.stringify(leak)}` : ""}`);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ");
    console.log(
      `[page-params-fuzz] seed ${SEED}: ${served} cases over ${pages.length} pages in ${seconds} s (concurrency ${CONCURRENCY}); ${fiveHundreds} answers >= 500; ${failures.length} failures; statuses ${byStatus}`,
    );
    for (const context of contexts) await context.close();
    expect(served).toBe(CASES);
    expect(failures, failures.slice(0, 20).join("\n")).toEqual([]);
  });
});
