import { describe, expect, it } from "vitest";
import {
  CHARGE_FORM_KINDS,
  formValuesFromRequest,
  movedDueDate,
  type ChargeFormKind,
  type ChargeFormValues,
} from "@/lib/charges/form-values";
import { CHARGE_KINDS } from "@/lib/charges/kinds";
import { CHARGE_FORMS } from "@/lib/charges/kinds/forms";
import { buildGatewayRequest } from "@/lib/charges/requests";
import { ORIGIN_MAX_LENGTH, requestOrigin } from "@/lib/gateway/origin";
import { ENDPOINTS } from "@/lib/gateway/schemas/endpoints";
import { saoPauloDate } from "@/lib/i18n/format";

const CARD = "4111111111111111";

const base: ChargeFormValues = {
  identifier: "pix-20260101-aaaaaaaaaa",
  amount: "1.250,90",
  client: { name: "Ana Lima", email: "ana@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
  address: {
    country: "BR",
    zipCode: "01310-100",
    state: "SP",
    city: "São Paulo",
    street: "Av. Paulista",
    neighborhood: "Bela Vista",
    number: "1000",
    complement: "ap 3",
  },
  card: { number: "4111 1111 1111 1111", owner: "ANA LIMA", expiresAt: "2031-01", cvv: "123", statementDescriptor: "LOJA" },
  installments: "2",
  clientIp: "203.0.113.9",
  products: [{ id: "p1", name: "Curso de fotografia", quantity: "2", price: "600,00", physical: true }],
  shippingFee: "50,90",
  extraFee: "",
  discount: "",
  splits: [{ producerId: "prod-2", amount: "100,00" }],
  metadata: [{ key: "pedido", value: "A-1001" }],
  origin: "  instagram  ",
  dueDate: "",
  currency: "BRL",
  cryptoCurrency: "USDT",
  network: "POLYGON",
  product: { id: "plan", name: "Plano", price: "25,00" },
  subscription: { periodicityType: "MONTHS", periodicity: "1", firstChargeIn: "0" },
};

const SELLING: ChargeFormKind[] = ["pix", "card", "boleto", "crypto"];

/** What the form sends, validated by the server's schema, built into the request as the ledger keeps it. */
function built(kind: ChargeFormKind, values: ChargeFormValues = base) {
  return CHARGE_KINDS[kind].use((definition) =>
    buildGatewayRequest(definition, definition.schema.parse(CHARGE_FORMS[kind].pick(values)), "https://console.example/api/webhooks/a"),
  );
}

async function issues(kind: ChargeFormKind, values: ChargeFormValues) {
  const browser = (await CHARGE_FORMS[kind].schema()).safeParse(values);
  const server = CHARGE_KINDS[kind].definition.schema.safeParse(CHARGE_FORMS[kind].pick(values));
  const of = (r: typeof server | typeof browser) => (r.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`).sort();
  expect(of(browser)).toEqual(of(server));
  return of(server);
}

describe("the Origem field", () => {
  it.each(SELLING)(
    "%s: goes to the gateway as metadata.origem beside the typed metadata, and the ledger reads it as the origin label",
    (kind) => {
      const { request, stored } = built(kind);
      expect(request.metadata).toEqual({ pedido: "A-1001", origem: "instagram" });
      expect(
        ENDPOINTS[`create${kind[0]!.toUpperCase()}${kind.slice(1)}Charge` as "createPixCharge"].request.safeParse(request).success,
      ).toBe(true);
      expect(requestOrigin(stored).originLabel).toBe("instagram");
    },
  );

  it.each(SELLING)("%s: left empty, sends no origem (and no metadata at all when nothing else was typed)", (kind) => {
    expect(built(kind, { ...base, origin: "   " }).request.metadata).toEqual({ pedido: "A-1001" });
    const { request, stored } = built(kind, { ...base, origin: "", metadata: [] });
    expect(request).not.toHaveProperty("metadata");
    expect(requestOrigin(stored).originLabel).toBeNull();
  });

  it("is kept whole up to ORIGIN_MAX_LENGTH (the ledger's limit), accents and emoji included", () => {
    const longest = "indicação 🎉 ".repeat(40).slice(0, ORIGIN_MAX_LENGTH - 1) + "x";
    expect(longest).toHaveLength(ORIGIN_MAX_LENGTH);
    const { stored } = built("pix", { ...base, origin: longest });
    expect(requestOrigin(stored).originLabel).toBe(longest);
  });

  it("refuses, at the field, a value the ledger would cut or a line break, a tab or another control character", async () => {
    expect(await issues("pix", { ...base, origin: "x".repeat(ORIGIN_MAX_LENGTH + 1) })).toEqual(["origin: charges.errors.originTooLong"]);
    for (const bad of ["insta\ngram", "insta\tgram", "insta\u0000gram", "insta\u0085gram", "insta\u007fgram"])
      expect(await issues("boleto", { ...base, origin: bad })).toEqual(["origin: charges.errors.originControl"]);
    // Around the text, spaces and line breaks are trimmed like any other field's.
    expect(await issues("crypto", { ...base, origin: "\n evento \n" })).toEqual([]);
  });

  it("is the only way to send metadata.origem: a metadata row with that key is refused at its key", async () => {
    const values = { ...base, metadata: [...base.metadata, { key: "origem", value: "facebook" }] };
    expect(await issues("card", values)).toEqual(["metadata.1.key: charges.errors.metadataOrigin"]);
  });

  it("is not on the forms whose requests take no metadata (deposit, subscriptions)", () => {
    for (const kind of CHARGE_FORM_KINDS) {
      const sends = SELLING.includes(kind);
      expect(CHARGE_FORMS[kind].sections.includes("origin"), kind).toBe(sends);
      expect("origin" in CHARGE_FORMS[kind].pick(base), kind).toBe(sends);
    }
  });
});

describe("a new charge's form values from an old charge's stored request", () => {
  const options = { today: "2026-03-10", createdOn: "2026-03-01" };

  it("copies customer, amount, products, fees, splits, metadata and origem, in the form's own masks", () => {
    const values = formValuesFromRequest(built("pix").stored, options);
    expect(values).toEqual({
      amount: "1.250,90",
      client: { name: "Ana Lima", email: "ana@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
      products: [{ id: "p1", name: "Curso de fotografia", quantity: "2", price: "600,00", physical: true }],
      shippingFee: "50,90",
      splits: [{ producerId: "prod-2", amount: "100,00" }],
      metadata: [{ key: "pedido", value: "A-1001" }],
      origin: "instagram",
    });
  });

  it.each(["pix", "card", "boleto", "crypto", "deposit", "pix-subscription", "card-subscription", "crypto-subscription"] as const)(
    "%s: never the identifier, the card or the customer's IP; a fresh identifier makes it a valid new charge of the same request",
    (kind) => {
      const old = built(kind);
      const values = formValuesFromRequest(old.stored, options);
      expect(values).not.toHaveProperty("identifier");
      expect(values).not.toHaveProperty("card");
      expect(values).not.toHaveProperty("clientIp");
      const text = JSON.stringify(values);
      for (const leak of [old.identifier, CARD, "411111", "1111", "ANA LIMA", "LOJA", "2031-01", "203.0.113.9"])
        expect(text).not.toContain(leak);

      // The copy plus what the form makes fresh (identifier) or asks again (card, IP) sends the same request.
      const again = built(kind, {
        ...base,
        metadata: [],
        origin: "",
        products: [],
        splits: [],
        shippingFee: "",
        ...values,
        identifier: "new-1",
      });
      expect({ ...again.request, identifier: old.identifier }).toEqual(old.request);
    },
  );

  it("reads the address of a card charge back into the form's address fields", () => {
    expect(formValuesFromRequest(built("card").stored, options).address).toEqual({ ...base.address, zipCode: "01310-100" });
  });

  it("moves a due date ahead: the old charge's term counted from today (1 to 30 days; 3 when unknown)", () => {
    const stored = built("boleto", { ...base, dueDate: saoPauloDate() }).stored;
    const due = formValuesFromRequest(stored, { today: "2026-03-10", createdOn: saoPauloDate() }).dueDate;
    expect(due).toBe("2026-03-13"); // created and due the same day: no term, so 3 days
    expect(movedDueDate("2026-03-05", { today: "2026-03-10", createdOn: "2026-03-01" })).toBe("2026-03-14");
    expect(movedDueDate("2026-12-31", { today: "2026-03-10", createdOn: "2026-03-01" })).toBe("2026-04-09");
    expect(movedDueDate("2026-03-05", { today: "2026-12-30", createdOn: null })).toBe("2027-01-02");
  });

  it("keeps only what it can show: odd values are dropped, not guessed", () => {
    const values = formValuesFromRequest(
      {
        identifier: "old",
        amount: "12",
        client: "Ana",
        products: [null, { name: "X", price: 1 }],
        metadata: { origem: 42, nested: { a: 1 }, n: 7 },
        dueDate: "soon",
        subscription: { periodicityType: "FORTNIGHTS", periodicity: 2 },
      },
      options,
    );
    expect(values).toEqual({
      products: [{ id: "", name: "X", quantity: "1", price: "1,00", physical: false }],
      metadata: [{ key: "n", value: "7" }],
    });
  });
});
