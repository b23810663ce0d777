import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { auditLog, ledgerTransactions } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startSandbox } from "@/sandbox/app";
import { createSandboxControl, type SandboxControl } from "@/sandbox/control-client";

/*
 * The server actions run as they do in Next, except that the session comes from here: the
 * permission check is the real role matrix, the account and IP are the ones a request would carry.
 */
const session = vi.hoisted(() => ({ role: "producer" as "admin" | "operator" | "producer" | "viewer", accountId: "" }));
vi.mock("@/lib/auth/session", async () => {
  const { roleCan } = await import("@/lib/auth/permissions");
  class AccessDeniedError extends Error {
    constructor(readonly reason: "unauthenticated" | "forbidden") {
      super(reason);
    }
  }
  const context = () => {
    const account = { id: session.accountId, name: "Sandbox", mode: "test", role: session.role };
    return {
      user: { id: "user-ops-test", email: "ops@example.test", name: "Ops", role: session.role, locale: "pt-BR" },
      accounts: [account],
      account,
      ip: "203.0.113.50",
    };
  };
  type Context = ReturnType<typeof context>;
  const can = (ctx: Context, permission: Parameters<typeof roleCan>[1], accountId?: string) =>
    roleCan(session.role, permission) && (!accountId || ctx.accounts.some((a) => a.id === accountId));
  return {
    AccessDeniedError,
    can,
    getAccessContext: async () => context(),
    authorize: async (permission: Parameters<typeof roleCan>[1]) => {
      if (!roleCan(session.role, permission)) throw new AccessDeniedError("forbidden");
      return context();
    },
  };
});

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.APP_URL = "http://127.0.0.1:9/console";
process.env.GATEWAY_TIMEOUT_MS = "5000";
// The gateway client's own log lines are part of what must never carry a card number.
process.env.GATEWAY_LOG = "1";

const CARD = "4111111111111111";

function restoreEnv(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
const DECLINED = "4000000000000002";
const CVV = "987";
const actor = { id: "user-ops-test", email: "ops@example.test" };

const targets = await testDatabases();
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: SandboxControl;

const pixForm = (identifier: string, amount = "150,00") => ({
  identifier,
  amount,
  client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
  products: [{ id: "p1", name: "Curso", quantity: "1", price: "150,00", physical: false }],
  shippingFee: "",
  extraFee: "",
  discount: "",
  splits: [],
  metadata: [{ key: "pedido", value: "42" }],
  dueDate: "",
  callbackUrl: "",
});

const cardForm = (identifier: string, number: string) => ({
  identifier,
  amount: "89,90",
  installments: "2",
  clientIp: "203.0.113.7",
  client: { name: "João Lima", email: "joao@example.com", phone: "11987654321", document: "12345678909" },
  address: {
    country: "BR",
    zipCode: "01310-100",
    state: "SP",
    city: "São Paulo",
    street: "Av. Paulista",
    neighborhood: "Bela Vista",
    number: "1000",
    complement: "",
  },
  card: {
    number: number.replace(/(\d{4})/g, "$1 ").trim(),
    owner: "JOAO LIMA",
    expiresAt: "2031-08",
    cvv: CVV,
    statementDescriptor: "LOJA",
  },
  products: [],
  shippingFee: "",
  extraFee: "",
  discount: "",
  splits: [],
  metadata: [],
  callbackUrl: "",
});

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
  control = createSandboxControl({ baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" });
});
afterAll(async () => {
  await sandbox?.close();
});

describe.each(targets)("charge operations on $name", (target: TestDatabase) => {
  let accountId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      {
        name: "Sandbox",
        baseUrl: sandbox.url,
        publicKey: "pk_sandbox_demo",
        secretKey: "sk_sandbox_demo",
        webhookToken: null,
        mode: "test",
      },
      null,
    );
    accountId = account.id;
    session.accountId = account.id;
  });
  afterAll(async () => {
    await control.clearFaults();
    await closeDb();
    await target.drop();
  });

  async function create(kind: "pix" | "card", raw: unknown) {
    const { createCharge } = await import("@/lib/charges/service");
    return createCharge(kind, raw, { accountId, actor, ip: "10.1.2.3" });
  }

  it("records a Pix charge, sends it once and keeps the answer", async () => {
    const identifier = `pix-${randomUUID()}`;
    const { row, replayed } = await create("pix", pixForm(identifier));
    expect(replayed).toBe(false);
    expect(row.submission).toBe("SUBMITTED");
    expect(row.status).toBe("OK");
    expect(row.gatewayTransactionId).toBeTruthy();
    expect(row.amountCents).toBe(15000);
    expect((row.response as { pix: { code: string } }).pix.code).toMatch(/^000201/);
    expect(row.request).toMatchObject({ callbackUrl: `http://127.0.0.1:9/console/api/webhooks/${accountId}`, metadata: { pedido: "42" } });
    const db = await getDb();
    const audits = await db.select().from(auditLog).where(eq(auditLog.target, row.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ userId: actor.id, action: "operation.pix_charge", accountId });
  });

  it("an Origem typed on the form reaches the gateway as metadata.origem and the ledger's origin label; a new charge made from it copies it", async () => {
    const identifier = `pix-${randomUUID()}`;
    const { row } = await create("pix", { ...pixForm(identifier), origin: " instagram " });
    expect(row.submission).toBe("SUBMITTED");
    expect(row.request).toMatchObject({ metadata: { pedido: "42", origem: "instagram" } });
    expect(row.originLabel).toBe("instagram");

    const { chargePrefill } = await import("@/lib/charges/prefill");
    const copied = await chargePrefill(accountId, "pix", row.id);
    expect(copied).toMatchObject({
      state: "copied",
      source: { id: row.id, identifier },
      values: { origin: "instagram", amount: "150,00" },
    });
    expect(copied.state === "copied" && copied.values).not.toHaveProperty("identifier");
    expect(await chargePrefill(accountId, "boleto", row.id)).toEqual({
      state: "otherKind",
      source: { id: row.id, identifier, kind: "pix" },
    });
    expect(await chargePrefill(accountId, "pix", randomUUID())).toEqual({ state: "notFound" });
    // Another account's charge is as unknown as one that does not exist.
    const { createAccount } = await import("@/lib/accounts/queries");
    const other = await createAccount(
      { name: "Outra", baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo", webhookToken: null, mode: "test" },
      null,
    );
    expect(await chargePrefill(other.id, "pix", row.id)).toEqual({ state: "notFound" });
  });

  it("refuses a bad Origem at its field, before anything is recorded or sent", async () => {
    const identifier = `pix-${randomUUID()}`;
    const { createChargeAction } = await import("@/app/(dashboard)/[account]/charges/actions");
    const result = await createChargeAction({ accountId, kind: "pix", values: { ...pixForm(identifier), origin: "insta\ngram" } });
    expect(result).toMatchObject({ ok: false, fieldErrors: { origin: ["charges.errors.originControl"] } });
    const db = await getDb();
    expect(await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.identifier, identifier))).toHaveLength(0);
  });

  it("sends one request for concurrent identical submissions", async () => {
    const identifier = `pix-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 6 }, () => create("pix", pixForm(identifier))));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.row.id));
    expect(ids.size).toBe(1);
    const db = await getDb();
    const rows = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.identifier, identifier));
    expect(rows).toHaveLength(1);
    const audits = await db.select().from(auditLog).where(eq(auditLog.target, rows[0].id));
    expect(audits).toHaveLength(1);
  });

  /** POSTs that left for the gateway carrying this identifier: what "sent once" means. */
  function countPosts(spy: { mock: { calls: unknown[][] } }, identifier: string): number {
    return spy.mock.calls.filter(([url, init]) => {
      const request = init as RequestInit | undefined;
      const toGateway = String(url).includes("/api/v1/gateway/");
      return (
        toGateway && request?.method === "POST" && typeof request.body === "string" && request.body.includes(`"identifier":"${identifier}"`)
      );
    }).length;
  }

  async function reconcileUntilSettled(id: string) {
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    const db = await getDb();
    for (let pass = 0; pass < 20; pass++) {
      await runBackgroundWorkOnce();
      const [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, id));
      if (row.submission !== "UNKNOWN" && row.submission !== "SUBMITTING") return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the reconciler did not settle the row");
  }

  it.each([
    ["created but answered 503", { status: 503 as const, afterProcessing: true }],
    ["answered 502 before creating", { status: 502 as const }],
    ["connection reset after processing", { dropConnection: true }],
    ["garbage answer after processing", { malformedBody: true }],
    ["timeout after processing", { latencyMs: 700 }],
  ])("%s: UNKNOWN, never sent again, settled by the reconciler with no click", async (_, fault) => {
    const identifier = `pix-${randomUUID()}`;
    const previous = {
      delays: process.env.RECONCILE_DELAYS_MS,
      timeout: process.env.GATEWAY_TIMEOUT_MS,
      absent: process.env.RECONCILE_ABSENT_AFTER_MS,
    };
    process.env.RECONCILE_DELAYS_MS = "0";
    process.env.RECONCILE_ABSENT_AFTER_MS = "0";
    process.env.GATEWAY_TIMEOUT_MS = "300";
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      await control.fault({ ...fault, times: 1, identifier });
      const first = await create("pix", pixForm(identifier));
      expect(first.row.submission).toBe("UNKNOWN");
      // The same submission again (a double click, a retry) sends nothing; other values under the same identifier neither.
      expect((await create("pix", pixForm(identifier))).replayed).toBe(true);
      expect((await create("pix", pixForm(identifier, "999,00"))).replayed).toBe(true);
      const db = await getDb();
      // Due now: the test does not wait for the 10 s of the first step.
      await db.execute(sql`update gateway_checks set next_at = now() where target_id = ${first.row.id}`);
      const settled = await reconcileUntilSettled(first.row.id);
      const created = "status" in fault && !("afterProcessing" in fault);
      if (created) {
        // The gateway never created it: proven absent by the lookup, and only the very same body may go again.
        expect(settled.submission).toBe("ABSENT");
        const { IdentifierBoundError } = await import("@/lib/ledger/submissions");
        await expect(create("pix", pixForm(identifier, "999,00"))).rejects.toBeInstanceOf(IdentifierBoundError);
        // The resend meets no fault: the short timeout above was for the faults, not for a busy host.
        process.env.GATEWAY_TIMEOUT_MS = "10000";
        expect((await create("pix", pixForm(identifier))).row.submission).toBe("SUBMITTED");
        expect(countPosts(fetchSpy, identifier)).toBe(2);
      } else {
        expect(settled.submission).toBe("SUBMITTED");
        expect(settled.gatewayTransactionId).toBeTruthy();
        expect(settled.status).toEqual(expect.any(String));
        expect(countPosts(fetchSpy, identifier)).toBe(1);
      }
      const audits = await db.select().from(auditLog).where(eq(auditLog.target, first.row.id));
      expect(audits.map((a) => a.action)).toContain("operation.reconciled");
    } finally {
      fetchSpy.mockRestore();
      restoreEnv("RECONCILE_DELAYS_MS", previous.delays);
      restoreEnv("GATEWAY_TIMEOUT_MS", previous.timeout);
      restoreEnv("RECONCILE_ABSENT_AFTER_MS", previous.absent);
      await control.clearFaults();
    }
  });

  it("a gateway down for a while: every submission is UNKNOWN, the console keeps going, and all settle once it is back", async () => {
    const previous = { delays: process.env.RECONCILE_DELAYS_MS, absent: process.env.RECONCILE_ABSENT_AFTER_MS };
    process.env.RECONCILE_DELAYS_MS = "0";
    process.env.RECONCILE_ABSENT_AFTER_MS = "0";
    const db = await getDb();
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    const { gatewayChecks } = await import("@/lib/db/schema");
    try {
      // Down: every call, POSTs and lookups alike, is answered 503 (the first one after creating the charge).
      await control.fault({ status: 503, afterProcessing: true, times: 1 });
      await control.fault({ status: 503, times: 1_000 });
      const identifiers = Array.from({ length: 3 }, () => `down-${randomUUID()}`);
      const rows = [];
      for (const identifier of identifiers) rows.push((await create("pix", pixForm(identifier))).row);
      expect(rows.map((r) => r.submission)).toEqual(["UNKNOWN", "UNKNOWN", "UNKNOWN"]);
      await db.execute(
        sql`update gateway_checks set next_at = now() where target_id in (${sql.join(
          rows.map((r) => sql`${r.id}`),
          sql`, `,
        )})`,
      );
      await runBackgroundWorkOnce();
      for (const row of rows) {
        const [check] = await db.select().from(gatewayChecks).where(eq(gatewayChecks.targetId, row.id));
        expect(check).toMatchObject({ state: "pending", lastOutcome: "lookup_failed" });
        const [still] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row.id));
        expect(still.submission).toBe("UNKNOWN");
      }

      // Back: the reconciler settles each one, with no click.
      await control.clearFaults();
      for (const row of rows) await reconcileUntilSettled(row.id);
      const settled = await db
        .select()
        .from(ledgerTransactions)
        .where(
          sql`${ledgerTransactions.id} in (${sql.join(
            rows.map((r) => sql`${r.id}`),
            sql`, `,
          )})`,
        );
      const byId = new Map(settled.map((r) => [r.id, r]));
      // The first was created before the gateway failed; the others never reached it.
      expect(byId.get(rows[0].id)?.submission).toBe("SUBMITTED");
      expect(byId.get(rows[1].id)?.submission).toBe("ABSENT");
      expect(byId.get(rows[2].id)?.submission).toBe("ABSENT");
    } finally {
      restoreEnv("RECONCILE_DELAYS_MS", previous.delays);
      restoreEnv("RECONCILE_ABSENT_AFTER_MS", previous.absent);
      await control.clearFaults();
    }
  });

  it("a clear 400 refusal is REJECTED and the corrected values may be sent under the same identifier", async () => {
    const identifier = `pix-${randomUUID()}`;
    const sent = pixForm(identifier);
    const { createChargeOperation } = await import("@/lib/charges/service");
    const { definition } = (await import("@/lib/charges/kinds")).CHARGE_KINDS.pix;
    const parsed = definition.schema.parse(sent);
    // A document the form accepts is refused by the gateway: a clear 400, nothing created.
    parsed.client.document = "111.111.111-11";
    const first = await createChargeOperation(definition, parsed, { accountId, actor, ip: "10.1.2.3" });
    expect(first.row.submission).toBe("REJECTED");
    expect(first.row.error).toMatchObject({ kind: "validation", status: 400 });
    const second = await create("pix", pixForm(identifier));
    expect(second.replayed).toBe(false);
    expect(second.row.submission).toBe("SUBMITTED");
  });

  it("turns a dropped connection into UNKNOWN, refuses to resend, and settles it by lookup", async () => {
    const { checkOperationNow } = await import("@/lib/ledger/settle");
    const identifier = `pix-${randomUUID()}`;
    await control.fault({ dropConnection: true, times: 1, identifier });
    const first = await create("pix", pixForm(identifier));
    expect(first.row.submission).toBe("UNKNOWN");
    const again = await create("pix", pixForm(identifier));
    expect(again.replayed).toBe(true);
    expect(again.row.submission).toBe("UNKNOWN");
    const checked = await checkOperationNow(accountId, first.row.id, actor);
    expect(checked?.outcome).toBe("found");
    expect(checked?.row.submission).toBe("SUBMITTED");
    expect(checked?.row.gatewayTransactionId).toBeTruthy();
  });

  it("does not declare a miss absent before the waiting period; after it, only the same body may be sent again", async () => {
    const { checkOperationNow } = await import("@/lib/ledger/settle");
    const { claimSubmission } = await import("@/lib/ledger/submissions");
    const identifier = `pix-${randomUUID()}`;
    const { row } = await claimSubmission({ accountId, kind: "pix_charge", identifier, request: {}, summary: {}, actor });
    const db = await getDb();
    await db.update(ledgerTransactions).set({ submission: "UNKNOWN" }).where(eq(ledgerTransactions.id, row.id));
    const early = await checkOperationNow(accountId, row.id, actor);
    expect(early?.outcome).toBe("not_found_inconclusive");
    expect(early?.row.submission).toBe("UNKNOWN");
    const previous = process.env.RECONCILE_ABSENT_AFTER_MS;
    process.env.RECONCILE_ABSENT_AFTER_MS = "0";
    try {
      const checked = await checkOperationNow(accountId, row.id, actor);
      expect(checked?.outcome).toBe("absent");
      expect(checked?.row.submission).toBe("ABSENT");
    } finally {
      restoreEnv("RECONCILE_ABSENT_AFTER_MS", previous);
    }
    const { IdentifierBoundError } = await import("@/lib/ledger/submissions");
    await expect(create("pix", pixForm(identifier))).rejects.toBeInstanceOf(IdentifierBoundError);
  });

  it("refuses an identifier another kind of operation already owns", async () => {
    const { IdentifierTakenError } = await import("@/lib/ledger/submissions");
    const identifier = `mix-${randomUUID()}`;
    await create("pix", pixForm(identifier));
    await expect(create("card", cardForm(identifier, CARD))).rejects.toBeInstanceOf(IdentifierTakenError);
  });

  it("refuses a viewer at the action itself, before anything is recorded or sent", async () => {
    const { createChargeAction } = await import("@/app/(dashboard)/[account]/charges/actions");
    const identifier = `viewer-${randomUUID()}`;
    session.role = "viewer";
    try {
      expect(await createChargeAction({ accountId, kind: "pix", values: pixForm(identifier) })).toEqual({
        ok: false,
        error: "errors.forbidden",
      });
    } finally {
      session.role = "producer";
    }
    const { countOperations } = await import("@/lib/ledger/queries");
    expect(await countOperations(accountId, identifier)).toBe(0);
    const lookup = await fetch(`${sandbox.url}/api/v1/gateway/transactions?clientIdentifier=${identifier}`, {
      headers: { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" },
    });
    expect(lookup.status).toBe(404);
  });

  it("the console owns callbackUrl: one sent with the form is ignored, the gateway is told the console's receiver", async () => {
    const { createChargeAction } = await import("@/app/(dashboard)/[account]/charges/actions");
    const { getLedgerRow: getOperation } = await import("@/lib/ledger/queries");
    const result = await createChargeAction({
      accountId,
      kind: "pix",
      values: { ...pixForm(`own-${randomUUID()}`), callbackUrl: "https://attacker.example/steal" },
    });
    if (!result.ok) throw new Error(JSON.stringify(result));
    const row = (await getOperation(accountId, result.data.id))!;
    expect((row.request as { callbackUrl: string }).callbackUrl).toBe(`http://127.0.0.1:9/console/api/webhooks/${accountId}`);
    const sent = await fetch(`${sandbox.url}/api/v1/gateway/transactions?id=${row.gatewayTransactionId}`, {
      headers: { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" },
    });
    expect(JSON.stringify(await sent.json())).not.toContain("attacker.example");
  });

  it("an action works on the account its input names, and refuses one the user cannot reach or none at all", async () => {
    const { createChargeAction } = await import("@/app/(dashboard)/[account]/charges/actions");
    const { countOperations } = await import("@/lib/ledger/queries");
    const elsewhere = `elsewhere-${randomUUID()}`;
    expect(await createChargeAction({ accountId: "acc-not-mine", kind: "pix", values: pixForm(elsewhere) })).toEqual({
      ok: false,
      error: "errors.forbidden",
    });
    expect(await createChargeAction({ kind: "pix", values: pixForm(elsewhere) } as never)).toEqual({
      ok: false,
      error: "errors.noAccount",
    });
    expect(await countOperations(accountId, elsewhere)).toBe(0);
  });

  it("a viewer is strictly read-only: refreshing a transaction or a refund from the gateway (a ledger write) is refused", async () => {
    const { refreshTransactionAction } = await import("@/app/(dashboard)/[account]/transactions/actions");
    const { refreshRefundAction } = await import("@/app/(dashboard)/[account]/refunds/actions");
    const { row } = await create("pix", pixForm(`ro-${randomUUID()}`));
    session.role = "viewer";
    try {
      expect(await refreshTransactionAction({ accountId, id: row.id })).toEqual({ ok: false, error: "errors.forbidden" });
      expect(await refreshRefundAction({ accountId, refundId: "any" } as never)).toEqual({ ok: false, error: "errors.forbidden" });
    } finally {
      session.role = "producer";
    }
  });

  it("never stores or logs the card number or the CVV", async () => {
    const lines: string[] = [];
    const capture = (...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    };
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation(capture));
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    const { createChargeAction } = await import("@/app/(dashboard)/[account]/charges/actions");
    const { getLedgerRow: getOperation } = await import("@/lib/ledger/queries");
    let approvedResult, declinedResult;
    try {
      approvedResult = await createChargeAction({ accountId, kind: "card", values: cardForm(`card-${randomUUID()}`, CARD) });
      declinedResult = await createChargeAction({ accountId, kind: "card", values: cardForm(`card-${randomUUID()}`, DECLINED) });
    } finally {
      [...spies, out, err].forEach((s) => s.mockRestore());
    }
    if (!approvedResult.ok || !declinedResult.ok)
      throw new Error(`card actions failed: ${JSON.stringify([approvedResult, declinedResult])}`);
    const approved = (await getOperation(accountId, approvedResult.data.id))!;
    const declined = (await getOperation(accountId, declinedResult.data.id))!;
    expect(approved.submission).toBe("SUBMITTED");
    expect(approved.status).toBe("OK");
    expect(approved.request).toMatchObject({ card: { brand: "visa", bin: "411111", last4: "1111" }, clientIp: "203.0.113.7" });
    expect(declined.status).toBe("FAILED");
    expect(JSON.stringify([approvedResult, declinedResult])).not.toContain(CARD.slice(6, 12));
    expect(lines.join("\n")).toContain("/card/receive");

    const db = await getDb();
    const tables = (await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { table_name: string }[] };
    expect(tables.rows.map((r) => r.table_name)).toContain("ledger_transactions");
    let dump = "";
    for (const { table_name } of tables.rows) {
      const rows = (await db.execute(sql.raw(`select * from "${table_name}"`))) as unknown as { rows: unknown[] };
      dump += JSON.stringify(rows.rows);
    }
    for (const number of [CARD, DECLINED]) {
      expect(dump).not.toContain(number);
      expect(dump).not.toContain(number.replace(/(\d{4})/g, "$1 ").trim());
      expect(lines.join("\n")).not.toContain(number);
    }
    expect(dump).not.toMatch(new RegExp(`"cvv"`));
    expect(dump).not.toContain(`"${CVV}"`);
    expect(lines.join("\n")).not.toContain(CVV);
  });
});
