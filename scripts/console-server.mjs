// The console's HTTP server: Next.js behind a plain node:http listener, so that the client
// address comes from the socket (Next alone keeps an X-Forwarded-For the client made up).
//   node scripts/console-server.mjs [--dev]   env PORT, HOST, TRUSTED_PROXY_HOPS
import http from "node:http";
import path from "node:path";
import process from "node:process";
import next from "next";
import { forwardedFor } from "../lib/http/forwarded-for.mjs";

const dev = process.argv.includes("--dev");
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST || undefined;
const trustedHops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0);

const app = next({ dev, dir: root, hostname: hostname ?? "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  req.headers["x-forwarded-for"] = forwardedFor(req.headers["x-forwarded-for"], req.socket.remoteAddress, trustedHops);
  handle(req, res);
});
// Next's own server keeps idle connections a little longer than common proxies do.
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`[console] ${dev ? "development" : "production"} server listening on ${hostname ?? "*"}:${port}`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
