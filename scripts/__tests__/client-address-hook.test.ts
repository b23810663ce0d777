import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const hook = pathToFileURL(path.resolve("scripts/client-address-hook.mjs")).href;
// A server like Next's own: a plain node:http server that echoes what it was told.
const echoServer = `
  const http = require("node:http");
  const server = http.createServer((req, res) => res.end(req.headers["x-forwarded-for"] ?? ""));
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let stopServer = () => {};
afterEach(() => stopServer());

async function serverWithHook(trustedHops: number): Promise<string> {
  const child = spawn(process.execPath, ["--import", hook, "-e", echoServer], {
    env: { ...process.env, TRUSTED_PROXY_HOPS: String(trustedHops) },
  });
  stopServer = () => child.kill();
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  return `http://127.0.0.1:${port}/`;
}

describe("the client-address hook preloaded into the console's server", () => {
  it("replaces a made-up X-Forwarded-For with the socket's address when no proxy is trusted", async () => {
    const url = await serverWithHook(0);
    for (const spoof of ["1.2.3.4", "9.9.9.9, 8.8.8.8"]) {
      const seen = await (await fetch(url, { headers: { "x-forwarded-for": spoof } })).text();
      expect(seen).toBe("127.0.0.1");
    }
    expect(await (await fetch(url)).text()).toBe("127.0.0.1");
  });

  it("keeps the trusted proxy's entry and appends the socket's", async () => {
    const url = await serverWithHook(1);
    const seen = await (await fetch(url, { headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.5" } })).text();
    expect(seen).toBe("203.0.113.5, 127.0.0.1");
  });
});
