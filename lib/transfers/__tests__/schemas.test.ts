import { describe, expect, it } from "vitest";
import { transferFormSchema } from "@/lib/transfers/schemas";
import { checkoutLinkFormSchema } from "@/lib/checkout-links/schemas";
import { refundRequestFormSchema } from "@/lib/refunds/schemas";

const base = {
  identifier: "tr-1",
  amount: "1.234,56",
  discountFeeOfReceiver: false,
  pixKeyType: "cpf" as const,
  pixKey: "529.982.247-25",
  ownerName: "  João  Conceição ",
  ownerDocumentType: "cnpj" as const,
  ownerDocumentNumber: "11.222.333/0001-81",
};

function errorsOf(result: ReturnType<typeof transferFormSchema.safeParse>) {
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
}

describe("transferFormSchema", () => {
  it("normalises the key, removes accents from the name and parses the amount", () => {
    expect(transferFormSchema.parse(base)).toEqual({
      identifier: "tr-1",
      amount: 1234.56,
      discountFeeOfReceiver: false,
      pix: { type: "cpf", key: "52998224725" },
      owner: { name: "Joao Conceicao", document: { type: "cnpj", number: "11222333000181" } },
    });
  });

  it("names every missing field in one submit", () => {
    const errors = errorsOf(
      transferFormSchema.safeParse({ ...base, amount: "", pixKey: "", ownerName: "", ownerDocumentType: "cpf", ownerDocumentNumber: "" }),
    );
    expect(Object.keys(errors).sort()).toEqual(["amount", "ownerDocumentNumber", "ownerName", "pixKey"]);
    expect(errors).toMatchObject({ amount: "br.errors.required", ownerName: "errors.required", ownerDocumentNumber: "errors.required" });
    expect(errorsOf(transferFormSchema.safeParse({ ...base, amount: "0" }))).toEqual({ amount: "br.errors.amountPositive" });
  });

  it("validates the key against its type and the document against its type", () => {
    expect(errorsOf(transferFormSchema.safeParse({ ...base, pixKeyType: "email", pixKey: "not-an-email" }))).toMatchObject({
      pixKey: "br.errors.emailInvalid",
    });
    expect(errorsOf(transferFormSchema.safeParse({ ...base, pixKeyType: "random", pixKey: "123" }))).toMatchObject({
      pixKey: "br.errors.pixRandomKeyInvalid",
    });
    expect(
      errorsOf(transferFormSchema.safeParse({ ...base, ownerDocumentType: "cpf", ownerDocumentNumber: "111.111.111-11" })),
    ).toMatchObject({
      ownerDocumentNumber: "br.errors.cpfInvalid",
    });
  });

  it("accepts another key or document type as free text, and requires it", () => {
    const other = transferFormSchema.parse({
      ...base,
      pixKeyType: "other",
      pixKeyTypeOther: "EVP",
      pixKey: "abc",
      ownerDocumentType: "other",
      ownerDocumentTypeOther: "passport",
      ownerDocumentNumber: "X123",
    });
    expect(other.pix).toEqual({ type: "evp", key: "abc" });
    expect(other.owner.document).toEqual({ type: "passport", number: "X123" });
    expect(errorsOf(transferFormSchema.safeParse({ ...base, pixKeyType: "other", pixKeyTypeOther: "" }))).toMatchObject({
      pixKeyTypeOther: "errors.required",
    });
  });

  it("phone keys become E.164", () => {
    expect(transferFormSchema.parse({ ...base, pixKeyType: "phone", pixKey: "(11) 98765-4321" }).pix.key).toBe("+5511987654321");
  });
});

describe("refundRequestFormSchema", () => {
  it("sends the text of a common reason, or the free text for other", () => {
    expect(refundRequestFormSchema.parse({ transactionId: "tx", reasonCode: "duplicate" }).reason).toBe("Cobrança em duplicidade");
    expect(refundRequestFormSchema.parse({ transactionId: "tx", reasonCode: "other", reasonText: "Erro meu" }).reason).toBe("Erro meu");
    expect(refundRequestFormSchema.safeParse({ transactionId: "tx", reasonCode: "other", reasonText: " " }).success).toBe(false);
  });
});

describe("checkoutLinkFormSchema", () => {
  const form = {
    product: { externalId: "p1", name: "Curso", photos: [{ url: "" }, { url: "https://img.example/a.png" }] },
    offer: { name: "Oferta", price: "97,00", offerType: "UNIQUE", currency: "all", lang: "all" },
    settings: {
      paymentMethods: ["PIX"],
      acceptedDocs: ["CPF", "CNPJ"],
      thankYouPage: "",
      askForAddress: true,
      useColors: false,
      colors: { primary: "#000000", background: "#ffffff", text: "#111111", buttonText: "#ffffff" },
    },
    prefill: false,
    customer: { name: "Ana", email: "", address: { city: "Recife" } },
  };

  it("drops empty photos, colours when not customised and the customer when not prefilled", () => {
    expect(checkoutLinkFormSchema.parse(form)).toEqual({
      product: {
        externalId: "p1",
        name: "Curso",
        photos: ["https://img.example/a.png"],
        offer: { name: "Oferta", price: 97, offerType: "UNIQUE", currency: "all", lang: "all" },
      },
      settings: { paymentMethods: ["PIX"], acceptedDocs: ["CPF", "CNPJ"], askForAddress: true },
    });
  });

  it("sends colours and the prefilled customer when chosen", () => {
    const parsed = checkoutLinkFormSchema.parse({ ...form, prefill: true, settings: { ...form.settings, useColors: true } });
    expect(parsed.settings.colors).toEqual(form.settings.colors);
    expect(parsed.customer).toEqual({ name: "Ana", address: { city: "Recife" } });
  });

  it("requires a payment method and valid colours", () => {
    const result = checkoutLinkFormSchema.safeParse({
      ...form,
      settings: { ...form.settings, paymentMethods: [], colors: { ...form.settings.colors, primary: "red" } },
    });
    expect(result.success).toBe(false);
    const paths = result.success ? [] : result.error.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["settings.paymentMethods", "settings.colors.primary"]));
  });
});
