// The console's background process (lib/background/worker-process.ts): `npm start` runs it
// beside the web server on Postgres; `npm run worker` runs one by hand (the web processes then
// need RECONCILER=worker). Same environment as the console.
import { setPriority } from "node:os";
import process from "node:process";
import { createLogger } from "@/lib/log";
import { runBackgroundProcess } from "@/lib/background/worker-process";

const log = createLogger("worker");

// Below the web server's priority: when the cores are busy, acknowledging deliveries (the one
// durable write a gateway waits for) goes first and the stored events are applied in the gaps.
try {
  setPriority(Number(process.env.WORKER_NICE ?? 10));
} catch {
  // not allowed here: run at the default priority
}

const { stop } = await runBackgroundProcess();
// The work runs on unreferenced timers and on connections that come and go (a database restart
// leaves none for a while): this process lives until it is told to stop, not until it looks idle.
const keepAlive = setInterval(() => {}, 60_000);
console.log("[worker] applying webhook events and confirming with the gateway");
// Ready: a supervisor (or a test) reading stdout knows the LISTEN is in place.
console.log(JSON.stringify({ ready: true }));

// SIGTERM (a supervisor, `npm start` stopping) or SIGINT: stop at a safe point (lib/background/
// worker-process.ts), then exit. A stop that hangs (a database that no longer answers) ends
// the process anyway: whatever it held is released by the database and its leases run out.
const STOP_TIMEOUT_MS = Number(process.env.WORKER_STOP_TIMEOUT_MS ?? 20_000);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping after the work in hand`);
    clearInterval(keepAlive);
    setTimeout(() => {
      log.error(`did not stop within ${STOP_TIMEOUT_MS} ms; exiting`);
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    stop().then(
      () => {
        log.info("stopped");
        // stdout is a pipe under a supervisor: exit once the last line is written.
        process.stdout.write("", () => process.exit(0));
      },
      (error: unknown) => {
        log.error("stopping failed", { error });
        process.exit(1);
      },
    );
  });
}
