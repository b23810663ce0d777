import { isIPv4 } from "@/lib/br";

/**
 * The user's address as sent in `owner.ip`, which the gateway wants as IPv4. A browser on the
 * console's own machine may come over IPv6 loopback (`::1` at http://localhost:3000); that is
 * the same machine as 127.0.0.1, so it is sent as such. Any other IPv6 address has no IPv4 form.
 */
export function ownerIpOf(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const value = ip.trim().toLowerCase();
  if (value === "::1" || value === "0:0:0:0:0:0:0:1") return "127.0.0.1";
  return isIPv4(value) ? value : null;
}
