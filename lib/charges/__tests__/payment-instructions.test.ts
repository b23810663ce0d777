import { describe, expect, it } from "vitest";
import { paymentInstructions, withoutPaymentCodes } from "@/lib/charges/payment-instructions";

const PIX_CODE =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Loja Exemplo6009SAO PAULO62070503***6304ABCD";

describe("paymentInstructions: what the customer needs, from whichever answer holds it", () => {
  it("a Pix charge's creation answer: code, image, order links", () => {
    const answer = {
      transactionId: "tx1",
      status: "OK",
      fee: 0.5,
      order: { id: "o1", url: "https://gw/o1", receiptUrl: "https://gw/r1" },
      pix: { code: PIX_CODE, image: "https://gw/qr.png", base64: "" },
    };
    expect(paymentInstructions("pix_charge", answer, null)).toEqual({
      method: "pix",
      source: "creation",
      code: PIX_CODE,
      imageUrl: "https://gw/qr.png",
      expiresAt: undefined,
      receiptUrl: "https://gw/r1",
      orderUrl: "https://gw/o1",
    });
  });

  it("a Pix charge whose creation answer was lost and that a lookup settled: the record's pixInformation.qrCode", () => {
    const record = {
      id: "tx1",
      clientIdentifier: "pix-1",
      status: "PENDING",
      paymentMethod: "PIX",
      pixInformation: { qrCode: PIX_CODE, image: "https://gw/qr.png", base64: "" },
    };
    for (const lost of [{}, null, undefined]) {
      expect(paymentInstructions("pix_charge", lost, record)).toMatchObject({
        method: "pix",
        source: "lookup",
        code: PIX_CODE,
        imageUrl: "https://gw/qr.png",
      });
    }
    expect(paymentInstructions("pix_deposit", {}, record)).toMatchObject({ method: "pix", source: "lookup", code: PIX_CODE });
  });

  it("the creation answer wins over a lookup record; an endpoint's qrCode field is read where code is missing", () => {
    const record = { pixInformation: { qrCode: "from-lookup" } };
    expect(paymentInstructions("pix_charge", { pix: { code: "from-creation" } }, record)).toMatchObject({
      code: "from-creation",
      source: "creation",
    });
    expect(paymentInstructions("pix_charge", { pix: { qrCode: "qr-field" } }, record)).toMatchObject({
      code: "qr-field",
      source: "creation",
    });
    // An empty code is no code: the lookup's is used.
    expect(paymentInstructions("pix_charge", { pix: { code: "  " } }, record)).toMatchObject({ code: "from-lookup", source: "lookup" });
  });

  it("a boleto: line, barcode and PDF from the creation answer, else from the record's boletoInformation", () => {
    const boleto = {
      barcode: "23791234500000123451234567890123456789012345",
      digitableLine: "23791.23456 78901.234567 89012.345678 1 23450000012345",
      pdfUrl: "https://gw/b.pdf",
    };
    expect(paymentInstructions("boleto_charge", { boleto, order: { url: "https://gw/o" } }, null)).toMatchObject({
      method: "boleto",
      source: "creation",
      ...boleto,
      orderUrl: "https://gw/o",
    });
    expect(paymentInstructions("boleto_charge", {}, { boletoInformation: { ...boleto, dueDate: "2026-12-01" } })).toMatchObject({
      method: "boleto",
      source: "lookup",
      ...boleto,
      dueDate: "2026-12-01",
    });
  });

  it("a crypto charge: the address from the creation answer, else from a record's details.crypto", () => {
    const crypto = { address: "0xabc", amount: 12.5, currency: "USDT", network: "POLYGON", expiresAt: "2026-12-01T00:00:00Z" };
    expect(paymentInstructions("crypto_charge", { crypto }, null)).toMatchObject({ method: "crypto", source: "creation", ...crypto });
    expect(paymentInstructions("crypto_charge", {}, { details: { crypto } })).toMatchObject({
      method: "crypto",
      source: "lookup",
      ...crypto,
    });
  });

  it("nothing to show: neither answer holds it, or the kind has no instructions of its own", () => {
    expect(paymentInstructions("pix_charge", {}, { id: "tx1", pixInformation: null })).toBeNull();
    expect(paymentInstructions("pix_charge", { pix: "garbage" }, ["not", "a", "record"])).toBeNull();
    expect(paymentInstructions("card_charge", { pix: { code: PIX_CODE } }, null)).toBeNull();
    expect(paymentInstructions("pix_subscription", { pix: { code: PIX_CODE } }, null)).toBeNull();
  });
});

describe("withoutPaymentCodes", () => {
  it("drops every code to pay from an answer and a record, keeping the rest", () => {
    const answer = {
      id: "tx1",
      pix: { code: "000201...", image: "https://x/qr.png", expiresAt: "2026-01-01T00:00:00Z" },
      boleto: { digitableLine: "2379", barcode: "2379", pdfUrl: "https://x/b.pdf", dueDate: "2026-01-01" },
      crypto: { address: "bc1q", amount: 1 },
      order: { url: "https://x/o" },
    };
    const record = {
      status: "REFUNDED",
      pixInformation: { qrCode: "000201...", endToEndId: "E1" },
      details: { crypto: { address: "bc1q" } },
    };
    const bare = withoutPaymentCodes(answer);
    expect(bare).toEqual({
      id: "tx1",
      pix: { expiresAt: "2026-01-01T00:00:00Z" },
      boleto: { dueDate: "2026-01-01" },
      crypto: { amount: 1 },
      order: { url: "https://x/o" },
    });
    expect(answer.pix.code).toBe("000201...");
    expect(withoutPaymentCodes(record)).toEqual({ status: "REFUNDED", pixInformation: { endToEndId: "E1" }, details: { crypto: {} } });
    expect(paymentInstructions("pix_charge", bare, withoutPaymentCodes(record))).toBeNull();
    expect(withoutPaymentCodes(null)).toBeNull();
  });
});
