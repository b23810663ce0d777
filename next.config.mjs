/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // `ANALYZE_BUNDLES=1 npm run build` writes browser source maps for scripts/bench/bundle-composition.mjs.
  productionBrowserSourceMaps: process.env.ANALYZE_BUNDLES === "1",
  // `npm test` type-checks the whole tree (sandbox and tests included) as its own step.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "pg"],
  outputFileTracingIncludes: { "/**": ["./lib/db/migrations/**/*"] },
};

export default nextConfig;
