// The minimal receiver the console is measured against: token check, sha256 dedupe key, one
// INSERT … ON CONFLICT DO NOTHING, 2xx. Plain JavaScript so the build needs no tsconfig here.
import { createHash, timingSafeEqual } from "node:crypto";
import pg from "pg";

export const dynamic = "force-dynamic";

const pool = new pg.Pool({ connectionString: process.env.BENCH_BASELINE_DATABASE_URL, max: 10 });
const token = Buffer.from(process.env.BENCH_TOKEN ?? "");

export async function POST(request) {
  const body = await request.text();
  let payload;
  try {
    payload = JSON.parse(body);
  } catch {
    return Response.json({ error: "invalid_json" }, { status: 400 });
  }
  const sent = Buffer.from(String(payload?.token ?? ""));
  if (sent.length !== token.length || !timingSafeEqual(sent, token)) return Response.json({ error: "bad_token" }, { status: 401 });
  const key = createHash("sha256").update(`${payload.event}|${payload.transaction?.id}|${payload.transaction?.status}`).digest("hex");
  await pool.query("insert into bench_baseline_events (dedupe_key, payload) values ($1, $2) on conflict do nothing", [key, body]);
  return Response.json({ received: true });
}
