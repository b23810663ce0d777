import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, securityHeaders } from "./lib/security-headers.mjs";

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];
const PUBLIC_PREFIXES = ["/sign-in", "/api/", "/forbidden", "/_next/", "/favicon", "/icon", "/robots.txt"];

const isProduction = process.env.NODE_ENV === "production";
// Set here rather than by `headers()` in next.config: a catch-all header rule cost every request,
// webhook deliveries included, about 0.15 ms of CPU (`npm run bench:webhooks`).
const SECURITY_HEADERS = securityHeaders(isProduction);

/**
 * Sets the security headers of every page and API answer (the webhook receiver sets its own), and,
 * for convenience only, sends visitors without a session cookie to the sign-in page early.
 * Every page, action and route handler still checks the session itself.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // A fresh nonce per request: Next.js reads the policy from the request headers and puts the
  // nonce on its own scripts; the root layout passes `x-nonce` to the theme script.
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, isProduction);
  const withCsp = (response: NextResponse) => {
    response.headers.set("Content-Security-Policy", csp);
    for (const { key, value } of SECURITY_HEADERS) response.headers.set(key, value);
    return response;
  };
  if (PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix)) || SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const headers = new Headers(request.headers);
    headers.set("x-nonce", nonce);
    headers.set("Content-Security-Policy", csp);
    // Next.js answers a path it cannot percent-decode (`/activity/%E0%A4%A`) with a 500 while reading its params: it names no page.
    if (malformedPath(pathname) || malformedAccountId(pathname) || malformedRecordId(pathname)) {
      if (pathname.startsWith("/api/")) return withCsp(NextResponse.json({ error: "not_found" }, { status: 404 }));
      return withCsp(NextResponse.rewrite(new URL("/_not-found", request.url), { request: { headers } }));
    }
    return withCsp(NextResponse.next({ request: { headers } }));
  }
  return withCsp(NextResponse.redirect(new URL("/sign-in", request.url)));
}

// A record's page streams behind its skeleton (loading.tsx), so a notFound() there would answer 200:
// an id that cannot be a record's (they are UUIDs) is answered 404 here, before anything is sent.
const RECORD_PAGE = /^\/[^/]+\/(?:transactions|charges|transfers|payouts|checkout-links|destinations)\/([^/]+)(?:\/|$)/;
const STATIC_CHILDREN = new Set(["new", "unconfirmed", "template"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The first segments that are not an account: the pages across accounts and the old addresses (app/(dashboard)/(old-urls)). */
const NOT_ACCOUNTS = new Set([
  "accounts",
  "activity",
  "admin",
  "profile",
  "forbidden",
  "sign-in",
  "api",
  "_next",
  "_not-found",
  "transactions",
  "charges",
  "lookup",
  "refunds",
  "checkout-links",
  "producer",
  "destinations",
  "webhooks",
  "transfers",
]);

/** An account's pages stream behind skeletons too: a first segment that cannot be an account's id (a UUID) is not found. */
function malformedAccountId(pathname: string): boolean {
  const first = pathname.split("/")[1];
  return first !== undefined && first !== "" && !NOT_ACCOUNTS.has(first) && !first.includes(".") && !UUID.test(first);
}

function malformedRecordId(pathname: string): boolean {
  // Route handlers answer for themselves (`/api/transactions/export` is no record page).
  if (pathname.startsWith("/api/")) return false;
  const id = RECORD_PAGE.exec(pathname)?.[1];
  return id !== undefined && !STATIC_CHILDREN.has(id) && !UUID.test(id);
}

function malformedPath(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

// The webhook receiver answers JSON to gateways: no redirect or CSP to add, and this runs per delivery.
// A receiver path with an escape still comes here: one Next.js cannot decode would be its 500.
export const config = { matcher: ["/((?!_next/static|_next/image|api/webhooks/[^%]*$|favicon.ico|.*\\.(?:png|svg|ico|woff2?)$).*)"] };
