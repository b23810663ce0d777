import { describe, expect, it } from "vitest";
import { CHARGE_FORM_KINDS, type ChargeFormKind, type ChargeFormValues } from "@/lib/charges/form-values";
import { CHARGE_KINDS, chargeKindOf } from "@/lib/charges/kinds";
import { CHARGE_FORMS } from "@/lib/charges/kinds/forms";
import { buildGatewayRequest } from "@/lib/charges/requests";
import type { GatewayClient } from "@/lib/gateway";
import { ENDPOINTS } from "@/lib/gateway/schemas/endpoints";

const filled: ChargeFormValues = {
  identifier: "kind-1",
  amount: "25,00",
  client: { name: "Ana", email: "ana@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
  address: {
    country: "BR",
    zipCode: "01310-100",
    state: "sp",
    city: "SP",
    street: "Rua",
    neighborhood: "Centro",
    number: "1",
    complement: "",
  },
  card: { number: "4111 1111 1111 1111", owner: "ANA", expiresAt: "2031-01", cvv: "123", statementDescriptor: "" },
  installments: "1",
  clientIp: "203.0.113.9",
  products: [{ id: "a", name: "A", quantity: "1", price: "25,00", physical: true }],
  shippingFee: "",
  extraFee: "",
  discount: "",
  splits: [],
  metadata: [{ key: "order", value: "42" }],
  origin: "instagram",
  dueDate: "",
  currency: "BRL",
  cryptoCurrency: "USDT",
  network: "POLYGON",
  product: { id: "plan", name: "Plano", price: "25,00" },
  subscription: { periodicityType: "MONTHS", periodicity: "1", firstChargeIn: "0" },
};

const empty: ChargeFormValues = {
  ...filled,
  identifier: "",
  amount: "",
  client: { name: "", email: "", phone: "", document: "" },
  card: { number: "", owner: "", expiresAt: "", cvv: "", statementDescriptor: "" },
  product: { id: "", name: "", price: "" },
  cryptoCurrency: "",
};

const ENDPOINT_OF = {
  pix: "createPixCharge",
  card: "createCardCharge",
  boleto: "createBoletoCharge",
  crypto: "createCryptoCharge",
  deposit: "createPixDeposit",
  "pix-subscription": "createPixSubscription",
  "card-subscription": "createCardSubscription",
  "crypto-subscription": "createCryptoSubscription",
} as const satisfies Record<ChargeFormKind, keyof typeof ENDPOINTS>;

/** A gateway that only records what it is asked. */
function recordingGateway() {
  const calls: { name: string; body: unknown }[] = [];
  const gateway = new Proxy(
    {},
    { get: (_, name) => async (body: unknown) => (calls.push({ name: String(name), body }), {}) },
  ) as unknown as GatewayClient;
  return { calls, gateway };
}

function errorsOf(issues: { path: PropertyKey[]; message: string }[]) {
  return issues.map((i) => `${i.path.join(".")}: ${i.message}`).sort();
}

describe("the charge kinds registry", () => {
  it("has one definition per kind, each under its own name, with its own ledger kind", () => {
    expect(Object.keys(CHARGE_KINDS).sort()).toEqual([...CHARGE_FORM_KINDS].sort());
    expect(Object.keys(CHARGE_FORMS).sort()).toEqual([...CHARGE_FORM_KINDS].sort());
    for (const kind of CHARGE_FORM_KINDS) {
      expect(CHARGE_KINDS[kind].kind).toBe(kind);
      expect(CHARGE_KINDS[kind].form).toBe(CHARGE_FORMS[kind]);
      expect(chargeKindOf(CHARGE_KINDS[kind].operationKind)?.kind).toBe(kind);
    }
    expect(new Set(Object.values(CHARGE_FORMS).map((f) => f.identifierPrefix)).size).toBe(CHARGE_FORM_KINDS.length);
  });

  it.each(CHARGE_FORM_KINDS)("%s: the browser's schema and the server's agree on what the form sends", async (kind) => {
    const form = CHARGE_FORMS[kind];
    const schema = CHARGE_KINDS[kind].definition.schema;
    const browser = await form.schema();
    for (const values of [filled, empty]) {
      const inBrowser = browser.safeParse(values);
      const onServer = schema.safeParse(form.pick(values));
      expect(inBrowser.success, JSON.stringify(inBrowser.error?.issues)).toBe(onServer.success);
      expect(errorsOf(inBrowser.error?.issues ?? [])).toEqual(errorsOf(onServer.error?.issues ?? []));
    }
    expect(browser.safeParse(filled).success).toBe(true);
  });

  it.each(CHARGE_FORM_KINDS)("%s: sends a request its endpoint accepts, and keeps no card number", async (kind) => {
    const { calls, gateway } = recordingGateway();
    await CHARGE_KINDS[kind].use(async (definition) => {
      const built = buildGatewayRequest(
        definition,
        definition.schema.parse(CHARGE_FORMS[kind].pick(filled)),
        "https://console.example/api/webhooks/a",
      );
      await definition.send(gateway, built.request);
      expect(built.kind).toBe(definition.operationKind);
      expect(JSON.stringify(built.stored)).not.toContain("4111111111111111");
    });
    expect(calls.map((c) => c.name)).toEqual([ENDPOINT_OF[kind]]);
    const request = ENDPOINTS[ENDPOINT_OF[kind]].request;
    expect(request.safeParse(calls[0]!.body).error?.issues).toBeUndefined();
  });
});
