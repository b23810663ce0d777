/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // `ANALYZE_BUNDLES=1 npm run build` writes browser source maps for scripts/bench/bundle-composition.mjs.
  productionBrowserSourceMaps: process.env.ANALYZE_BUNDLES === "1",
  // `npm test` type-checks the whole tree (sandbox and tests included) as its own step.
  typescript: { ignoreBuildErrors: true },
  // Batch payout files (lib/payout-batches/parse.ts MAX_BYTES, 5 MB) reach their action as a Blob; the default is 1 MB.
  experimental: { serverActions: { bodySizeLimit: "6mb" } },
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "pg"],
  outputFileTracingIncludes: { "/**": ["./lib/db/migrations/**/*"] },
};

export default nextConfig;
