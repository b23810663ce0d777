import { describe, expect, it } from "vitest";
import { roleCan } from "@/lib/auth/permissions";
import type { Role } from "@/lib/db/schema";
import { dictionaries } from "@/lib/i18n/messages";
import { createTranslator, lookup } from "@/lib/i18n/translate";
import type { LedgerRow } from "@/lib/ledger/queries";
import {
  paymentView,
  showsNotifications,
  statusNotices,
  transactionActions,
  transactionTimeline,
  transactionWording,
  type TransactionWords,
} from "../view";

const pt: TransactionWords = {
  t: createTranslator("pt-BR", dictionaries["pt-BR"]),
  has: (key) => lookup(dictionaries["pt-BR"], key) !== undefined,
};

const at = (minute: number) => new Date(Date.UTC(2026, 2, 18, 12, minute));

function row(overrides: Partial<LedgerRow> = {}): LedgerRow {
  return {
    kind: "pix_charge",
    status: "PENDING",
    origin: "console",
    createdAt: at(0),
    createdByEmail: "ana@example.com",
    error: null,
    submission: "SUBMITTED",
    gatewayTransactionId: "gw_1",
    lastLookupStatus: null,
    lastWebhookStatus: null,
    response: { pix: { code: "000201PIX", image: "data:x" }, order: { url: "https://pay.example/o/1" } },
    gatewayRecord: { pixInformation: { qrCode: "000201PIX" }, status: "PENDING" },
    ...overrides,
  } as LedgerRow;
}

const event = (minute: number, name: string | null, status: string | null, more: { deliveries?: number } = {}) => ({
  event: name,
  status,
  confirmation: null,
  deliveries: more.deliveries ?? 1,
  firstReceivedAt: at(minute).toISOString(),
});
const lookupEntry = (minute: number, details: unknown, action = "transactions.lookup", userEmail: string | null = "bia@example.com") => ({
  at: at(minute),
  userEmail,
  action,
  details,
});
const byRole = (role: Role) => (permission: Parameters<typeof roleCan>[1]) => roleCan(role, permission);

describe("transactionWording", () => {
  const say = transactionWording(pt, "pix_charge");

  it("puts each status the gateway reports in words, keeping an unknown one as the gateway's", () => {
    expect(say.status("PENDING")).toBe("Aguardando pagamento");
    expect(say.status("OK")).toBe("Aguardando pagamento");
    expect(say.status("COMPLETED")).toBe("Pago");
    expect(say.status("FAILED")).toBe("Falhou");
    expect(say.status("CANCELED")).toBe("Cancelado");
    expect(say.status("EXPIRED")).toBe("Expirado");
    expect(say.status("REFUNDED")).toBe("Reembolsado");
    expect(say.status("CHARGED_BACK")).toBe("Contestado (chargeback)");
    expect(say.status("IN_LIMBO")).toBe("IN_LIMBO (do gateway)");
    expect(say.status(null)).toBe("—");
  });

  it("reads a subscription's status with the subscription's words", () => {
    expect(transactionWording(pt, "pix_subscription").status("PENDING")).toBe("Aguardando ativação");
  });

  it("names known notifications, and says an unknown one came", () => {
    expect(say.event("TRANSACTION_PAID")).toBe("Notificação de pagamento recebida");
    expect(say.event("SOMETHING_NEW")).toBe("Notificação SOMETHING_NEW recebida");
    expect(say.event(null)).toBe("Notificação ? recebida");
  });

  it("words a lookup's error, except the server's, whose message needs an HTTP status the entry lacks", () => {
    expect(say.error("timeout", "transactions.gatewayErrors")).toBe("O gateway não respondeu a tempo.");
    expect(say.error("server", "transactions.gatewayErrors")).toBe("O gateway respondeu com um erro.");
    expect(say.error("no_such_kind", "transactions.gatewayErrors")).toBe("O gateway respondeu com um erro.");
    expect(say.who(null)).toBe("alguém");
  });
});

describe("transactionTimeline", () => {
  it("puts creation, notifications and lookups in time order, whatever order they were read in", () => {
    const timeline = transactionTimeline(
      row(),
      [event(5, "TRANSACTION_PAID", "COMPLETED", { deliveries: 3 })],
      [lookupEntry(9, { status: "COMPLETED" }), lookupEntry(2, { status: "PENDING" })],
      pt,
    );
    expect(timeline.map((item) => [item.icon, item.at.getTime()])).toEqual([
      ["created", at(0).getTime()],
      ["lookup", at(2).getTime()],
      ["webhook", at(5).getTime()],
      ["lookup", at(9).getTime()],
    ]);
    expect(timeline.map((item) => item.text)).toEqual([
      "Criada no console por ana@example.com",
      "Consulta ao gateway por bia@example.com: Aguardando pagamento",
      "Notificação de pagamento recebida: Pago",
      "Consulta ao gateway por bia@example.com: Pago",
    ]);
    expect(timeline[0]).toMatchObject({ detail: "Envio: Enviada", codes: "SUBMITTED" });
    expect(timeline[2]).toMatchObject({ detail: "3 entregas", codes: "TRANSACTION_PAID · COMPLETED" });
    expect(timeline[1].detail).toBeUndefined();
  });

  it("says a row came from outside the console, and a creation's error in words with its code", () => {
    const [created] = transactionTimeline(row({ origin: "webhook", error: { kind: "timeout" } as LedgerRow["error"] }), [], [], pt);
    expect(created.text).toBe("Registrada no livro (Conhecida por webhook)");
    expect(created.detail).toMatch(/^Erro na criação: /);
    expect(created.codes).toBe("timeout · SUBMITTED");
  });

  it("starts a row added from a lookup with its addition, not a creation", () => {
    const timeline = transactionTimeline(
      row({ origin: "lookup" }),
      [],
      [lookupEntry(1, {}, "transactions.add_from_lookup", null), lookupEntry(4, { error: "rate_limited" })],
      pt,
    );
    expect(timeline.map((item) => item.icon)).toEqual(["added", "lookup"]);
    expect(timeline[0].text).toBe("Adicionada ao livro pela consulta, por alguém");
    expect(timeline[1]).toMatchObject({
      text: "Consulta ao gateway por bia@example.com falhou: O gateway pediu para esperar antes de consultar de novo.",
      codes: "rate_limited",
    });
  });
});

describe("transactionActions", () => {
  const paid = row({ status: "COMPLETED" });

  it("offers a refund of a paid charge to those who may ask for one, and the refresh to those who may write the ledger", () => {
    for (const role of ["admin", "operator", "producer"] as const) {
      expect(transactionActions(paid, [], byRole(role))).toEqual({ openRefund: undefined, canRefund: true, canRefresh: true });
    }
    expect(transactionActions(paid, [], byRole("viewer"))).toEqual({ openRefund: undefined, canRefund: false, canRefresh: false });
  });

  it("offers no refund of a charge not confirmed paid, or without the gateway's id", () => {
    for (const status of ["PENDING", "FAILED", "REFUNDED", "CANCELED", null, "IN_LIMBO"]) {
      expect(transactionActions(row({ status }), [], byRole("admin")).canRefund).toBe(false);
    }
    expect(transactionActions(row({ status: "COMPLETED", gatewayTransactionId: null }), [], byRole("admin")).canRefund).toBe(false);
  });

  it("points at the request waiting for its outcome ('Ver pedido') instead of offering another", () => {
    const waiting = { id: "r2", submission: "SUBMITTED", status: "PENDING" };
    const refused = { id: "r1", submission: "SUBMITTED", status: "REFUSED" };
    const actions = transactionActions(paid, [refused, waiting], byRole("producer"));
    expect(actions.openRefund).toBe(waiting);
    expect(actions.canRefund).toBe(false);
    // the request is shown to a viewer too, who may not ask for one
    expect(transactionActions(paid, [waiting], byRole("viewer")).openRefund).toBe(waiting);
    // one refused or rejected at sending is over: a new request may be asked for
    const over = transactionActions(paid, [refused, { id: "r3", submission: "REJECTED", status: null }], byRole("producer"));
    expect(over).toMatchObject({ openRefund: undefined, canRefund: true });
  });

  it("lists the notifications only for those who may see the inbox", () => {
    expect(showsNotifications(byRole("viewer"))).toBe(true);
    expect(showsNotifications(() => false)).toBe(false);
  });
});

describe("paymentView", () => {
  it("keeps the codes to pay while the charge can be paid", () => {
    const view = paymentView(row({ status: "PENDING" }));
    expect(view).toMatchObject({ payable: true, paid: false });
    expect(view.response).toEqual(row().response);
    expect(view.record).toEqual(row().gatewayRecord);
  });

  it("drops every code to pay once the charge cannot be paid, and tells paid from otherwise closed", () => {
    for (const [status, paid] of [
      ["COMPLETED", true],
      ["EXPIRED", false],
      ["REFUNDED", false],
    ] as const) {
      const tx = row({ status });
      const view = paymentView(tx);
      expect(view).toMatchObject({ payable: false, paid });
      expect(view.response).toEqual({ pix: {}, order: { url: "https://pay.example/o/1" } });
      expect(view.record).toEqual({ pixInformation: {}, status: "PENDING" });
      // the row itself is left as it was
      expect((tx.response as { pix: { code: string } }).pix.code).toBe("000201PIX");
    }
  });

  it("keeps the codes of a status no table knows: the customer may be paying it", () => {
    expect(paymentView(row({ status: "IN_LIMBO" })).payable).toBe(true);
  });
});

describe("statusNotices", () => {
  it("warns when the lookup and the last notification disagree", () => {
    expect(statusNotices({ lastLookupStatus: "COMPLETED", lastWebhookStatus: "PENDING" }, 1)).toEqual({
      gap: true,
      lookupWithoutWebhook: false,
    });
    expect(statusNotices({ lastLookupStatus: "COMPLETED", lastWebhookStatus: "COMPLETED" }, 1).gap).toBe(false);
  });

  it("says no notification came only when a lookup answered and none is recorded", () => {
    expect(statusNotices({ lastLookupStatus: "PENDING", lastWebhookStatus: null }, 0)).toEqual({ gap: false, lookupWithoutWebhook: true });
    expect(statusNotices({ lastLookupStatus: "PENDING", lastWebhookStatus: null }, 2).lookupWithoutWebhook).toBe(false);
    expect(statusNotices({ lastLookupStatus: null, lastWebhookStatus: null }, 0)).toEqual({ gap: false, lookupWithoutWebhook: false });
  });
});
