// How `npm start` and the webhook benchmark start the background process (scripts/run/background-worker.ts).
import path from "node:path";

/** Node arguments: `server-only` resolves to its server build, TypeScript and the `@/` paths through tsx. */
export function backgroundWorkerArgs(root) {
  return ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts", "run", "background-worker.ts")];
}
