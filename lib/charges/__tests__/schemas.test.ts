import { describe, expect, it } from "vitest";
import { buildGatewayRequest } from "@/lib/charges/requests";
import { CHARGE_KINDS } from "@/lib/charges/kinds";
import { expectedTotalCents } from "@/lib/charges/form-values";
import { cardChargeFormSchema, pixChargeFormSchema, pixDepositFormSchema } from "@/lib/charges/schemas";
import { cardChargeRequestSchema, pixChargeRequestSchema } from "@/lib/gateway/schemas/charges";

const client = { name: "Ana", email: "ana@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" };
const card = (over: Partial<Record<string, string>> = {}) => ({
  identifier: "card-1",
  amount: "10,00",
  installments: "",
  clientIp: "203.0.113.9",
  client,
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
  ...over,
});

function errorsOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
}

describe("charge form schemas", () => {
  it("accepts a masked Pix form and builds a request the gateway schema accepts", () => {
    const parsed = pixChargeFormSchema.parse({
      identifier: "pix-1",
      amount: "1.234,56",
      client: { ...client, document: "12.ABC.345/01DE-35" },
      products: [{ id: "a", name: "A", quantity: "2", price: "600,00", physical: true }],
      shippingFee: "34,56",
      splits: [{ producerId: "prod_x", amount: "100,00" }],
      metadata: [{ key: "k", value: "v" }],
    });
    const built = buildGatewayRequest(CHARGE_KINDS.pix.definition, parsed, "https://console.example/api/webhooks/a");
    expect(pixChargeRequestSchema.safeParse(built.request).success).toBe(true);
    expect(built.request).toMatchObject({
      amount: 1234.56,
      client: { phone: "+5511987654321", document: "12ABC34501DE35" },
      metadata: { k: "v" },
    });
    expect(built.summary.amountCents).toBe(123456);
  });

  it("rejects bad CPF, CEP, UF, IP, card number, expired card and a short CVV next to their fields", () => {
    const result = cardChargeFormSchema.safeParse({
      ...card(),
      clientIp: "300.1.1.1",
      client: { ...client, document: "123.456.789-00" },
      address: { ...card().address, zipCode: "123", state: "XX" },
      card: { number: "4111 1111 1111 1112", owner: "A", expiresAt: "2020-01", cvv: "12", statementDescriptor: "" },
    });
    expect(errorsOf(result)).toMatchObject({
      clientIp: "br.errors.ipv4Invalid",
      "client.document": "br.errors.documentInvalid",
      "address.zipCode": "br.errors.cepInvalid",
      "address.state": "br.errors.ufInvalid",
      "card.number": "br.errors.cardNumberInvalid",
      "card.expiresAt": "br.errors.cardExpired",
    });
  });

  it("keeps only brand, BIN and last 4 of the card in what the ledger stores", () => {
    const built = buildGatewayRequest(CHARGE_KINDS.card.definition, cardChargeFormSchema.parse(card()), "https://c.example/w");
    expect(cardChargeRequestSchema.safeParse(built.request).success).toBe(true);
    expect(built.request.card.number).toBe("4111111111111111");
    expect(built.stored.card).toEqual({ brand: "visa", bin: "411111", last4: "1111", owner: "ANA", expiresAt: "2031-01" });
    expect(JSON.stringify(built.stored)).not.toContain("4111111111111111");
    expect(JSON.stringify(built.stored)).not.toContain('"123"');
  });

  it("wants a 4-digit CVV for Amex", () => {
    const amex = card({});
    const result = cardChargeFormSchema.safeParse({ ...amex, card: { ...amex.card, number: "378282246310005", cvv: "123" } });
    expect(errorsOf(result)["card.cvv"]).toBe("br.errors.cvvInvalid");
  });

  it("refuses splits above the amount and money with 3 decimals or ≤ 0", () => {
    const over = pixChargeFormSchema.safeParse({
      identifier: "x",
      amount: "10,00",
      client,
      splits: [{ producerId: "p", amount: "10,01" }],
    });
    expect(errorsOf(over).splits).toBe("charges.errors.splitsAboveAmount");
    expect(errorsOf(pixDepositFormSchema.safeParse({ identifier: "d", amount: "0" })).amount).toBe("br.errors.amountPositive");
    expect(pixDepositFormSchema.safeParse({ identifier: "d", amount: 1.005 }).success).toBe(false);
  });

  it("refuses a due date in the past and a malformed one", () => {
    const base = { identifier: "b", amount: "10,00", client };
    expect(errorsOf(pixChargeFormSchema.safeParse({ ...base, dueDate: "2020-01-01" })).dueDate).toBe("charges.errors.datePast");
    expect(errorsOf(pixChargeFormSchema.safeParse({ ...base, dueDate: "2030-02-30x" })).dueDate).toBe("charges.errors.dateInvalid");
    expect(pixChargeFormSchema.safeParse({ ...base, dueDate: "2099-12-31" }).success).toBe(true);
  });

  it("computes products + fees − discount for the mismatch warning", () => {
    const total = expectedTotalCents({
      products: [
        { id: "a", name: "A", quantity: "3", price: "10,00", physical: false },
        { id: "b", name: "B", quantity: "", price: "5,50", physical: false },
      ],
      shippingFee: "2,00",
      extraFee: "",
      discount: "1,50",
    });
    expect(total).toBe(3600);
    expect(expectedTotalCents({ products: [], shippingFee: "", extraFee: "", discount: "" })).toBeNull();
  });
});
