/**
 * What the console's own HTTP server puts in X-Forwarded-For before Next.js sees the request.
 * With no trusted proxy in front, the socket's address replaces whatever the client sent; with
 * `trustedHops` proxies, their entries are kept and the socket's address is appended, so the
 * reader (`clientIp`) can count that many entries from the right.
 *
 * @param {string | string[] | undefined} incoming
 * @param {string | undefined} socketAddress
 * @param {number} trustedHops
 * @returns {string}
 */
export function forwardedFor(incoming, socketAddress, trustedHops) {
  const peer = socketAddress ?? "";
  if (!trustedHops || trustedHops <= 0) return peer;
  const sent = (Array.isArray(incoming) ? incoming.join(",") : (incoming ?? ""))
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  // Only the entries the trusted proxies could have added matter; the rest is the client's say.
  return [...sent.slice(-trustedHops), peer].filter(Boolean).join(", ");
}
