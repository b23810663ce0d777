import { startSandbox } from "./app";

const port = Number(process.env.SANDBOX_PORT ?? 4010);
const host = process.env.SANDBOX_HOST ?? "127.0.0.1";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
try {
  sandbox = await startSandbox({
    port,
    host,
    dataDir: process.env.SANDBOX_DATA_DIR ?? ".data/sandbox",
    databaseUrl: process.env.SANDBOX_DATABASE_URL || undefined,
    publicUrl: process.env.SANDBOX_PUBLIC_URL || undefined,
    webhookRetryMs: process.env.SANDBOX_WEBHOOK_RETRY_MS ? Number(process.env.SANDBOX_WEBHOOK_RETRY_MS) : undefined,
  });
} catch (err) {
  console.error(`Sandbox gateway failed to start: ${(err as Error).message}`);
  process.exit(1);
}

console.log(
  `Sandbox gateway ready on ${sandbox.url} (public URL ${sandbox.publicUrl}; demo producer pk_sandbox_demo, see sandbox/README.md)`,
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`Sandbox gateway stopping (${signal})`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await sandbox.close();
    process.exit(0);
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
