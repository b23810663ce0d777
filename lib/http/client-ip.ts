import "server-only";
import { env } from "@/lib/env";

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(source: HeaderSource, name: string): string | null {
  if (typeof (source as { get?: unknown }).get === "function") return (source as { get(n: string): string | null }).get(name);
  const value = (source as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(",") : (value ?? null);
}

function normaliseIp(ip: string): string {
  const trimmed = ip.trim();
  return trimmed.startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice(7) : trimmed;
}

/**
 * The console's server (scripts/run/client-address-hook.mjs, lib/http/forwarded-for.mjs) ends
 * X-Forwarded-For with the socket's address and drops what the client sent unless
 * TRUSTED_PROXY_HOPS proxies are in front; each of those adds one entry we may look past.
 * Entries further left are the client's say and never read.
 */
export function clientIp(headers: HeaderSource, trustedHops = env.trustedProxyHops): string | null {
  const forwarded = header(headers, "x-forwarded-for");
  if (forwarded) {
    const hops = forwarded
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const candidate = hops[hops.length - 1 - trustedHops] ?? hops[0];
    if (candidate) return normaliseIp(candidate);
  }
  const real = header(headers, "x-real-ip");
  return real ? normaliseIp(real) : null;
}
