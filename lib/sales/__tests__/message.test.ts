import { describe, expect, it } from "vitest";
import { DEFAULT_RECOVERY_TEMPLATE, mailtoUrl, renderRecoveryMessage, whatsappUrl } from "../message";

describe("recovery message", () => {
  it("fills the default template with the first name, the amount in reais, the product and the link", () => {
    const text = renderRecoveryMessage(DEFAULT_RECOVERY_TEMPLATE, {
      name: "  Maria  Souza ",
      amountCents: 123456,
      currency: "BRL",
      product: "Curso de fotografia",
      link: "https://pay.example/abc",
    });
    expect(text).toMatch(/^Olá, Maria! Vimos que o seu pagamento de R\$\s1\.234,56 para Curso de fotografia ainda não foi concluído\./);
    expect(text).toContain("é só pagar por aqui: https://pay.example/abc.");
  });

  it("reads well without a product or a name, and keeps a currency it does not know as its code", () => {
    const text = renderRecoveryMessage(DEFAULT_RECOVERY_TEMPLATE, {
      name: null,
      amountCents: 500,
      currency: "XYZW",
      product: " ",
      link: null,
    });
    expect(text).toContain("Olá, tudo bem!");
    expect(text).toContain("XYZW 5,00 para o seu pedido ainda não foi concluído");
    expect(renderRecoveryMessage("{nome} {desconto}", { name: "Ana", amountCents: 1, currency: "BRL", product: null, link: null })).toBe(
      "Ana {desconto}",
    );
  });

  it("opens WhatsApp only for a valid Brazilian phone and e-mail only for an address, with the text encoded", () => {
    expect(whatsappUrl("(11) 98765-4321", "Olá & até")).toBe("https://wa.me/5511987654321?text=Ol%C3%A1%20%26%20at%C3%A9");
    expect(whatsappUrl("123", "x")).toBeNull();
    expect(whatsappUrl(null, "x")).toBeNull();
    expect(mailtoUrl("ana@example.com", "Pedido", "a b")).toBe("mailto:ana%40example.com?subject=Pedido&body=a%20b");
    expect(mailtoUrl("not-an-address", "s", "t")).toBeNull();
  });
});
