/**
 * The minimal correct confirmer bench:chain compares the console with (a process of its own,
 * node:http + pg): stores each notification and answers 200; then asks the gateway for the
 * transaction ONCE and marks the payment paid only when the gateway's record says so. No ledger,
 * no feed, no events: the least a receiver may do and still not take a notification for money.
 *
 *   env PORT, DATABASE_URL (tables chain_notifications and chain_payments, made by the bench),
 *       GATEWAY_BASE_URL, GATEWAY_PUBLIC_KEY, GATEWAY_SECRET_KEY, GATEWAY_WEBHOOK_TOKEN
 */
import http from "node:http";
import process from "node:process";
import pg from "pg";

const gateway = process.env.GATEWAY_BASE_URL!;
const token = process.env.GATEWAY_WEBHOOK_TOKEN!;
const keys = { "x-public-key": process.env.GATEWAY_PUBLIC_KEY!, "x-secret-key": process.env.GATEWAY_SECRET_KEY! };
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** The gateway's record of a transaction (one GET), or null when it answered anything but 200. */
function lookup(id: string): Promise<{ id?: string; status?: string } | null> {
  return new Promise((resolve) => {
    const request = http.get(
      `${gateway}/api/v1/gateway/transactions?id=${encodeURIComponent(id)}`,
      { agent, headers: keys },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          if (response.statusCode !== 200) return resolve(null);
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: string; status?: string });
          } catch {
            resolve(null);
          }
        });
      },
    );
    request.on("error", () => resolve(null));
  });
}

/** Paid only on the gateway's word: the notification was a hint. */
async function confirm(id: string, identifier: string | null): Promise<void> {
  const record = await lookup(id);
  if (record?.id !== id || record.status !== "COMPLETED") return;
  await pool.query(
    `insert into chain_payments (gateway_id, identifier, status, confirmed_at) values ($1, $2, 'paid', clock_timestamp())
     on conflict (gateway_id) do nothing`,
    [id, identifier],
  );
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    let notification: { event?: string; token?: string; transaction?: { id?: string; identifier?: string } };
    try {
      notification = JSON.parse(body) as typeof notification;
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (notification.token !== token) {
      response.writeHead(401).end();
      return;
    }
    pool.query("insert into chain_notifications (payload) values ($1)", [body]).then(
      () => {
        response.writeHead(200).end();
        const id = notification.transaction?.id;
        if (notification.event === "TRANSACTION_PAID" && id) confirm(id, notification.transaction?.identifier ?? null).catch(() => {});
      },
      () => response.writeHead(500).end(),
    );
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(JSON.stringify({ ready: true })));
process.on("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
