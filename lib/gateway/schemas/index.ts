/**
 * zod schemas and types for the whole gateway interface (seeds/000_75a5d2a2c8c7772d.txt), one
 * file per domain: shared objects in common.ts, then charges, subscriptions, transfers, checkout,
 * refunds, transactions, producer, webhooks, and the endpoints table that ties them together.
 *
 * The console's client side of the interface (the sandbox keeps its own schemas in
 * sandbox/contract, so the two never agree only with each other). Free of `server-only`.
 *
 * Policy:
 * - Requests are strict objects: an unknown field is REJECTED (a typo such as `clientIP` would
 *   otherwise be silently dropped and the gateway would see a request without the field). The
 *   only open places are those the interface leaves open: `metadata`, checkout
 *   `customer.address` and the boleto `splits` items, whose fields are not shown.
 *   Requests check what the interface states (presence, types, formats, IPv4, URLs, positive
 *   amounts), never Brazilian business rules such as CPF check digits (those live in lib/br
 *   and the console's form schemas).
 * - Responses are loose objects at every level: unknown fields are KEPT, numbers sent as strings
 *   are read as numbers, and every `status` is a plain string because the interface never gives
 *   the full status sets (lib/status/machine.ts maps the family's spellings).
 */
export * from "./common";
export * from "./charges";
export * from "./subscriptions";
export * from "./transfers";
export * from "./checkout";
export * from "./refunds";
export * from "./transactions";
export * from "./producer";
export * from "./webhooks";
export * from "./endpoints";
