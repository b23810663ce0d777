import type { Areas } from "./messages";

export type AreaName = keyof Areas;

/**
 * Sent to the browser on every page: the shell, statuses, field and error messages, and what
 * shared components and cross-cutting answers (second factor, the operation's account) say.
 * Every other area is sent only by the routes that use it (`RouteMessages` in their layout).
 */
export const SHARED_AREAS = [
  "common",
  "ui",
  "shell",
  "nav",
  "status",
  "errors",
  "br",
  "transactions",
  "accounts",
  "auth",
  "vocab",
] as const satisfies readonly AreaName[];

export const ALL_AREAS = [
  "common",
  "ui",
  "shell",
  "br",
  "errors",
  "auth",
  "nav",
  "accounts",
  "users",
  "profile",
  "home",
  "charges",
  "transfers",
  "payouts",
  "refunds",
  "checkoutLinks",
  "activity",
  "transactions",
  "producer",
  "overview",
  "audit",
  "status",
  "destinations",
  "params",
  "sales",
  "salesRecovery",
  "balance",
  "subscriptions",
  "vocab",
] as const satisfies readonly AreaName[];

export function isArea(name: string): name is AreaName {
  return (ALL_AREAS as readonly string[]).includes(name);
}
