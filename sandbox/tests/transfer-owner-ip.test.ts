/* eslint-disable @typescript-eslint/no-explicit-any -- responses are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayErrorBodySchema } from "../../lib/gateway/schemas/common";
import { isLoopbackIp, ownerIpRefused } from "../domain/transfers";
import { startInProcess, transferBody } from "./helpers";

// In-process, so each call can come from the address the test names (a socket here is always loopback).
let local: Awaited<ReturnType<typeof startInProcess>>;
beforeAll(async () => {
  local = await startInProcess();
});
afterAll(() => local.close());

function expectError(res: { status: number; json: any }, status: number, fragment?: RegExp) {
  expect(res.status).toBe(status);
  expect(gatewayErrorBodySchema.parse(res.json).statusCode).toBe(status);
  if (fragment) expect(res.json.message).toMatch(fragment);
}

describe("transfers: owner.ip and the caller's address", () => {
  const owner = (ip: string) => ({ owner: { ip, name: "Joao", document: { type: "cpf", number: "52998224725" } } });

  it("refuses owner.ip equal to a non-loopback caller's IP, in Portuguese", async () => {
    const res = await local.post("/transfers", transferBody(owner("203.0.113.7")), { remoteAddress: "203.0.113.7" });
    expectError(res, 422, /^owner\.ip: deve ser o IP do usuário que faz a transferência/);
    expect(res.json.errorCode).toBe("GATEWAY_INVALID_ARGUMENT");
    expectError(
      await local.post("/transfers", transferBody(owner("203.0.113.7")), { remoteAddress: "::ffff:203.0.113.7" }),
      422,
      /owner\.ip/,
    );
    expectError(await local.post("/transfers", transferBody(owner("10.0.0.5")), { remoteAddress: "10.0.0.5" }), 422, /owner\.ip/);
  });

  it("accepts owner.ip equal to the caller's when both are loopback (the one-machine demo)", async () => {
    for (const remoteAddress of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      const res = await local.post("/transfers", transferBody(owner("127.0.0.1")), { remoteAddress });
      expect(res.status, remoteAddress).toBe(200);
    }
    expect((await local.post("/transfers", transferBody(owner("127.0.0.2")), { remoteAddress: "127.0.0.2" })).status).toBe(200);
  });

  it("a loopback owner.ip from a non-loopback caller is accepted as before (the addresses differ)", async () => {
    expect((await local.post("/transfers", transferBody(owner("127.0.0.1")), { remoteAddress: "203.0.113.7" })).status).toBe(200);
    expect((await local.post("/transfers", transferBody(owner("203.0.113.8")), { remoteAddress: "203.0.113.7" })).status).toBe(200);
  });

  it("tells loopback addresses apart from the rest", () => {
    for (const ip of ["127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"])
      expect(isLoopbackIp(ip), ip).toBe(true);
    for (const ip of ["128.0.0.1", "10.0.0.1", "1.127.0.0", "127.0.0", "127.0.0.256", "::ffff:10.0.0.1", "::2", "localhost"])
      expect(isLoopbackIp(ip), ip).toBe(false);
    expect(ownerIpRefused("127.0.0.1", "127.0.0.1")).toBe(false);
    expect(ownerIpRefused("200.1.2.3", "200.1.2.3")).toBe(true);
    expect(ownerIpRefused("200.1.2.3", null)).toBe(false);
  });
});
