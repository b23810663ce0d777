/**
 * The Content-Security-Policy of one response. Scripts run only with this request's nonce
 * (Next.js puts it on its own scripts when it finds the policy in the request headers, see
 * proxy.ts); 'strict-dynamic' lets those scripts load the app's chunks. No 'unsafe-inline'.
 */
export function contentSecurityPolicy(nonce, isProduction) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isProduction ? "" : " 'unsafe-eval'"}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${isProduction ? "" : " ws: wss:"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
}

/** Headers of every page and API answer, set by proxy.ts beside the per-request CSP (it carries a nonce). */
export function securityHeaders(isProduction) {
  const headers = [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  ];
  if (isProduction) headers.push({ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" });
  return headers;
}
