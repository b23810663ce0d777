import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];
const PUBLIC_PREFIXES = ["/sign-in", "/api/", "/forbidden", "/_next/", "/favicon", "/icon", "/robots.txt"];

/**
 * Convenience only: sends visitors without a session cookie to the sign-in page early.
 * Every page, action and route handler still checks the session itself.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return NextResponse.next();
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  return NextResponse.redirect(new URL("/sign-in", request.url));
}

export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico|woff2?)$).*)"] };
