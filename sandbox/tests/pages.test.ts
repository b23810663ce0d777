import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../app";
import { api, boletoBody, cryptoBody, pixBody, start } from "./helpers";

let sandbox: RunningSandbox;
let demo: ReturnType<typeof api>;
const local = (url: string) => url.replace(sandbox.publicUrl, sandbox.url);

beforeAll(async () => {
  sandbox = await start();
  demo = api(sandbox);
});
afterAll(() => sandbox.close());

describe("served artefacts", () => {
  it("serves the Pix QR Code as a PNG generated on request", async () => {
    const created = await demo.post("/pix/receive", pixBody());
    const res = await fetch(local(created.json.pix.image));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await fetch(`${sandbox.url}/qr/unknown.png`)).status).toBe(404);
  });

  it("serves the boleto PDF", async () => {
    const created = await demo.post("/boleto/receive", boletoBody());
    const res = await fetch(local(created.json.boleto.pdfUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const head = new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).slice(0, 5));
    expect(head).toBe("%PDF-");
  });

  it("answers the BR Code location with the charge state", async () => {
    const created = await demo.post("/pix/receive", pixBody({ amount: 12.34 }));
    const location = /25\d\d([^ ]+?\/pix\/([0-9a-f]{25}))/.exec(created.json.pix.code)!;
    const res = await fetch(`${sandbox.url}/pix/${location[2]}`);
    expect(await res.json()).toMatchObject({ status: "ATIVA", valor: { original: "12.34" } });
  });
});

describe("hosted order page", () => {
  it("shows the charge and pays it with one POST", async () => {
    const created = await demo.post("/pix/receive", pixBody());
    const page = await fetch(local(created.json.order.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain("Pagar (sandbox)");
    expect(html).toContain(created.json.pix.code);
    const paid = await fetch(local(created.json.order.url), { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    const after = await (await fetch(local(created.json.order.url))).text();
    expect(after).not.toContain("Pagar (sandbox)");
    expect(after).toContain("COMPLETED");
    expect((await demo.get(`/transactions?id=${created.json.transactionId}`)).json.status).toBe("COMPLETED");
    const receipt = await fetch(local(created.json.order.receiptUrl));
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toContain(created.json.transactionId);
  });

  it("shows crypto and boleto details and escapes HTML", async () => {
    const crypto = await demo.post("/crypto/receive", cryptoBody());
    expect(await (await fetch(local(crypto.json.order.url))).text()).toContain(crypto.json.crypto.address);
    const boleto = await demo.post(
      "/boleto/receive",
      boletoBody({ client: { name: "<script>x</script>", email: "a@b.co", phone: "1", document: "52998224725" } }),
    );
    const receipt = await (await fetch(`${sandbox.url}/receipt/${boleto.json.order.id}`)).text();
    expect(receipt).not.toContain("<script>x</script>");
    expect(receipt).toContain("&lt;script&gt;");
    expect((await fetch(`${sandbox.url}/pay/ord_missing`)).status).toBe(404);
  });
});

describe("openapi", () => {
  it("describes the gateway interface and the control API", async () => {
    const res = await fetch(`${sandbox.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/gateway/pix/receive",
        "/api/v1/gateway/transfers",
        "/api/v1/gateway/transactions",
        "/sandbox/v1/transactions/{id}/events",
        "/sandbox/v1/faults",
      ]),
    );
    const pix = doc.paths["/api/v1/gateway/pix/receive"].post;
    expect(pix.requestBody.content["application/json"].schema.required).toEqual(expect.arrayContaining(["identifier", "amount", "client"]));
    expect(doc.components.schemas.PaymentWebhook.properties).toHaveProperty("transaction");
    expect((await fetch(`${sandbox.url}/health`)).status).toBe(200);
  });
});
