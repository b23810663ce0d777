import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

export type DestinationMode = "test" | "live";
export type UrlProblem = "invalid" | "scheme" | "https_required" | "credentials" | "blocked_address" | "unresolvable";

/**
 * Addresses a destination may never reach: private networks, link-local (cloud metadata lives at
 * 169.254.169.254), carrier NAT, documentation, multicast, reserved. Loopback is refused in live
 * mode and allowed in test mode, so a demo on one machine can send to localhost.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv6");
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address, else the address itself. */
function unwrap(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const lower = address.toLowerCase();
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return { address: mapped[1]!, family: "ipv4" };
  const hexMapped = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const high = parseInt(hexMapped[1]!, 16);
    const low = parseInt(hexMapped[2]!, 16);
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, family: "ipv4" };
  }
  return { address: lower, family: isIP(lower) === 6 ? "ipv6" : "ipv4" };
}

export function addressAllowed(address: string, mode: DestinationMode): boolean {
  if (isIP(address) === 0) return false;
  const { address: ip, family } = unwrap(address);
  if (LOOPBACK.check(ip, family)) return mode === "test";
  return !BLOCKED.check(ip, family);
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** What the URL itself says, before any name is resolved. */
export function urlShapeProblem(raw: string, mode: DestinationMode): UrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "invalid";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "scheme";
  if (mode === "live" && url.protocol !== "https:") return "https_required";
  if (url.username || url.password) return "credentials";
  const host = hostOf(url);
  if (!host) return "invalid";
  if (isIP(host) !== 0 && !addressAllowed(host, mode)) return "blocked_address";
  return null;
}

type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/**
 * The check made when a destination is saved: the URL's shape, then every address its name
 * resolves to. Each send checks again, against the address it connects to (guardedLookup).
 */
export async function urlProblem(raw: string, mode: DestinationMode, resolve: Resolve = systemResolve): Promise<UrlProblem | null> {
  const shape = urlShapeProblem(raw, mode);
  if (shape) return shape;
  const host = hostOf(new URL(raw));
  if (isIP(host) !== 0) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return "unresolvable";
  }
  if (addresses.length === 0) return "unresolvable";
  return addresses.every((a) => addressAllowed(a.address, mode)) ? null : "blocked_address";
}

export class BlockedAddressError extends Error {
  readonly code = "EBLOCKEDADDRESS";
  constructor(readonly hostname: string) {
    super("destination resolves to a refused address");
  }
}

/**
 * A `lookup` for the HTTP request: the connection goes to an address this function approved, so
 * a name that resolved to a public address at save time and to a private one now (DNS
 * rebinding) is refused at the moment it matters.
 */
export function guardedLookup(mode: DestinationMode, resolve: Resolve = systemResolve): LookupFunction {
  return ((hostname: string, options: { all?: boolean } | number | undefined, callback: (...args: unknown[]) => void) => {
    const all = typeof options === "object" && options !== null && options.all === true;
    resolve(hostname).then(
      (addresses) => {
        const allowed = addresses.filter((a) => addressAllowed(a.address, mode));
        if (allowed.length === 0 || allowed.length !== addresses.length) return callback(new BlockedAddressError(hostname));
        if (all) return callback(null, allowed);
        callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (error) => callback(error),
    );
  }) as LookupFunction;
}
