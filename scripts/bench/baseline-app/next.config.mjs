/** The benchmark's yardstick: the least a Next.js route handler can do per delivery. */
const nextConfig = { serverExternalPackages: ["pg"], poweredByHeader: false };
export default nextConfig;
