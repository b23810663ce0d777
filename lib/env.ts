import "server-only";
import path from "node:path";

/** Server configuration read once from the environment; see docs/configuration.md. */
export const env = {
  get isProduction() {
    return process.env.NODE_ENV === "production";
  },
  get port() {
    return Number(process.env.PORT ?? 3000);
  },
  get appUrl() {
    return (process.env.APP_URL ?? `http://localhost:${this.port}`).replace(/\/+$/, "");
  },
  get dataDir() {
    return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? ".data");
  },
  get databaseUrl() {
    return process.env.DATABASE_URL || undefined;
  },
  /** "memory://" keeps PGlite in memory (tests). */
  get pgliteDir() {
    return process.env.PGLITE_DIR ?? path.join(this.dataDir, "console-db");
  },
  get trustedProxyHops() {
    return Number(process.env.TRUSTED_PROXY_HOPS ?? 0);
  },
};
