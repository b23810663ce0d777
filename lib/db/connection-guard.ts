// No `server-only` (nothing here holds a secret); its user is lib/db/client.ts. The sandbox keeps a copy of its own in sandbox/db/client.ts.
import type { Pool, PoolClient } from "pg";
import { createLogger } from "../log";

/**
 * A connection ended by the server (a restart, an administrator, pg_terminate_backend) emits
 * 'error', and an 'error' nobody listens to ends the process. The pool listens on its idle
 * connections only, not on one checked out for a transaction, where the server's message can
 * arrive between two statements: every connection gets a listener of its own.
 *
 * A checked-out connection that dies is also given back at once, as broken: the ORM's transaction
 * sends BEGIN before its try/finally, so when BEGIN is what fails it never releases the
 * connection, and every such loss would keep one of the pool's slots until the pool ran dry.
 * The caller's statement fails as it would anyway; its own later release does nothing.
 */
export function guardConnections(pool: Pool): void {
  const log = createLogger("db");
  const checkedOut = new Set<PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_error, client) => checkedOut.delete(client));
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      log.warn("database connection lost", { code: (error as { code?: string }).code ?? null });
      if (!checkedOut.has(client)) return;
      const release = client.release.bind(client);
      client.release = () => {};
      release(error);
    }),
  );
  pool.on("error", () => {
    // an idle connection lost: logged by its own listener above, and already dropped by the pool
  });
}
