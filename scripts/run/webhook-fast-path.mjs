// Loads lib/notifications/fast-path.ts into `npm start`'s web server (scripts/run/client-address-hook.mjs):
// bundled at start with esbuild (the TypeScript and the `@/` paths), packages left to node_modules.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/**
 * The receiver's own request handler, or null where Next.js's route serves deliveries: outside
 * production, with `WEBHOOK_FAST_PATH=off`, and unless the background work runs in a worker
 * process of its own (RECONCILER=worker, `npm start` on Postgres). Then nothing but the receiver
 * runs from this bundle: the applier, the feed and every page stay in Next.js's build.
 */
export async function loadWebhookFastPath() {
  const { NODE_ENV, RECONCILER, WEBHOOK_FAST_PATH, NEXT_DIST_DIR } = process.env;
  if (NODE_ENV !== "production" || RECONCILER !== "worker" || WEBHOOK_FAST_PATH === "off") return null;
  const outfile = path.join(root, NEXT_DIST_DIR || ".next", "webhook-fast-path.mjs");
  try {
    const { build } = await import("esbuild");
    const { outputFiles } = await build({
      entryPoints: [path.join(root, "lib/notifications/fast-path.ts")],
      outfile,
      write: false,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      tsconfig: path.join(root, "tsconfig.json"),
      logLevel: "silent",
      // `server-only` is a marker for Next.js's bundler: this bundle runs on the server only.
      plugins: [
        {
          name: "server-only",
          setup(bundle) {
            bundle.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
            bundle.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "" }));
          },
        },
      ],
    });
    // Written aside and renamed: another web server starting from this directory never reads half a file.
    const written = `${outfile}.${process.pid}.tmp`;
    mkdirSync(path.dirname(outfile), { recursive: true });
    writeFileSync(written, outputFiles[0].contents);
    renameSync(written, outfile);
    const { serveWebhook } = await import(pathToFileURL(outfile).href);
    return serveWebhook;
  } catch (error) {
    console.error(`[console] webhook fast path not loaded (Next.js's route serves deliveries): ${error?.message ?? error}`);
    return null;
  }
}
