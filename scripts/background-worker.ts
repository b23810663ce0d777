// The console's background process (lib/reconcile/background-process.ts): `npm start` runs it
// beside the web server on Postgres; `npm run worker` runs one by hand (the web processes then
// need RECONCILER=worker). Same environment as the console.
import { setPriority } from "node:os";
import process from "node:process";
import { runBackgroundProcess } from "@/lib/reconcile/background-process";

// Below the web server's priority: when the cores are busy, acknowledging deliveries (the one
// durable write a gateway waits for) goes first and the stored events are applied in the gaps.
try {
  setPriority(Number(process.env.WORKER_NICE ?? 10));
} catch {
  // not allowed here: run at the default priority
}

const { stop } = await runBackgroundProcess();
console.log("[worker] applying webhook events and confirming with the gateway");
// Ready: a supervisor (or a test) reading stdout knows the LISTEN is in place.
console.log(JSON.stringify({ ready: true }));

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void stop().finally(() => process.exit(0));
  });
}
