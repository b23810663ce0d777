// Preloaded into the console's Next.js server (`node --import`, set by scripts/run/start.mjs through
// NODE_OPTIONS): before Next.js sees a request, X-Forwarded-For is rewritten from the socket
// (lib/http/forwarded-for.mjs), since Next alone keeps whatever the client made up. Then, where it
// is loaded (scripts/run/webhook-fast-path.mjs), the webhook receiver answers its own deliveries and
// Next.js serves everything else. A hook rather than a custom server: Next's custom-server path
// served webhooks about 25 % slower here.
import http from "node:http";
import process from "node:process";
import { forwardedFor } from "../../lib/http/forwarded-for.mjs";
import { loadWebhookFastPath } from "./webhook-fast-path.mjs";

const trustedHops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0);
const emit = http.Server.prototype.emit;
const serveWebhook = await loadWebhookFastPath();

http.Server.prototype.emit = function emitWithClientAddress(event, ...args) {
  if (event === "request") {
    const [request] = args;
    request.headers["x-forwarded-for"] = forwardedFor(request.headers["x-forwarded-for"], request.socket?.remoteAddress, trustedHops);
    if (serveWebhook?.(request, args[1])) return true;
  }
  return emit.call(this, event, ...args);
};
