import { describe, expect, it } from "vitest";
import type { LookupAddress } from "node:dns";
import { addressAllowed, guardedLookup, urlProblem, urlShapeProblem } from "../address";

const resolvesTo =
  (...addresses: string[]) =>
  async (): Promise<LookupAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("destination addresses", () => {
  it("live mode takes https only and refuses loopback, private, link-local and metadata addresses", async () => {
    expect(urlShapeProblem("http://hooks.example.com/x", "live")).toBe("https_required");
    for (const url of [
      "https://127.0.0.1/hook",
      "https://[::1]/hook",
      "https://10.1.2.3/hook",
      "https://172.20.0.5/hook",
      "https://192.168.0.10/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[fd00:ec2::254]/",
      "https://[fe80::1]/",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:a9fe:a9fe]/",
    ]) {
      expect(urlShapeProblem(url, "live"), url).toBe("blocked_address");
    }
    expect(await urlProblem("https://localhost/hook", "live", resolvesTo("127.0.0.1", "::1"))).toBe("blocked_address");
    expect(await urlProblem("https://internal.example/hook", "live", resolvesTo("10.0.0.7"))).toBe("blocked_address");
    expect(await urlProblem("https://mixed.example/hook", "live", resolvesTo("93.184.216.34", "192.168.1.1"))).toBe("blocked_address");
    expect(await urlProblem("https://hooks.example.com/hook", "live", resolvesTo("93.184.216.34"))).toBeNull();
  });

  it("test mode may use localhost, so the demo works on one machine; private networks stay refused", async () => {
    expect(urlShapeProblem("http://127.0.0.1:8000/hook", "test")).toBeNull();
    expect(await urlProblem("http://localhost:8000/hook", "test", resolvesTo("127.0.0.1", "::1"))).toBeNull();
    expect(urlShapeProblem("http://192.168.0.10/hook", "test")).toBe("blocked_address");
    expect(urlShapeProblem("http://169.254.169.254/", "test")).toBe("blocked_address");
    expect(addressAllowed("127.0.0.1", "test")).toBe(true);
    expect(addressAllowed("127.0.0.1", "live")).toBe(false);
  });

  it("refuses other schemes, credentials in the URL and names that do not resolve", async () => {
    expect(urlShapeProblem("ftp://example.com/", "test")).toBe("scheme");
    expect(urlShapeProblem("file:///etc/passwd", "test")).toBe("scheme");
    expect(urlShapeProblem("https://user:pass@example.com/", "live")).toBe("credentials");
    expect(urlShapeProblem("not a url", "live")).toBe("invalid");
    expect(
      await urlProblem("https://nowhere.invalid/", "live", async () => {
        throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      }),
    ).toBe("unresolvable");
  });

  it("checks again at each send, against the address it connects to (DNS rebinding)", async () => {
    let answer = ["93.184.216.34"];
    const lookup = guardedLookup("live", async () => answer.map((address) => ({ address, family: 4 })));
    const ask = () =>
      new Promise<{ error: unknown; address: unknown }>((resolve) =>
        (lookup as unknown as (h: string, o: object, cb: (e: unknown, a?: unknown) => void) => void)(
          "hooks.example.com",
          { all: true },
          (error, address) => resolve({ error, address }),
        ),
      );
    expect(await ask()).toMatchObject({ error: null, address: [{ address: "93.184.216.34", family: 4 }] });
    answer = ["127.0.0.1"];
    expect((await ask()).error).toMatchObject({ code: "EBLOCKEDADDRESS" });
    answer = ["169.254.169.254"];
    expect((await ask()).error).toMatchObject({ code: "EBLOCKEDADDRESS" });
  });
});
