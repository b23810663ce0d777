import type { Role } from "@/lib/db/schema";

/**
 * The one matrix of who may do what. Account-scoped permissions are checked against the
 * user's role on that account (membership); global ones against the user's own role.
 */
export const PERMISSIONS = {
  "account.view": ["admin", "operator", "producer", "viewer"],
  "transactions.view": ["admin", "operator", "producer", "viewer"],
  "charges.create": ["admin", "operator", "producer"],
  "refunds.request": ["admin", "operator", "producer"],
  /** Recording what a lookup found is a write to the ledger: not for read-only users. */
  "ledger.add": ["admin", "operator", "producer"],
  /** "Refresh from gateway" records what the gateway answered: a ledger write as well. */
  "ledger.refresh": ["admin", "operator", "producer"],
  "checkout.create": ["admin", "operator", "producer"],
  "transfers.view": ["admin", "producer", "viewer"],
  "transfers.create": ["admin", "producer"],
  /** Batch payouts: analysts prepare them; only those who may move money approve; an administrator allows self-approval. */
  "payouts.view": ["admin", "operator", "producer", "viewer"],
  "payouts.prepare": ["admin", "operator", "producer"],
  "payouts.approve": ["admin", "producer"],
  "payouts.settings": ["admin"],
  /** The sales area's figures (counts and money, no customer's contact). */
  "sales.view": ["admin", "operator", "producer", "viewer"],
  /** The recovery list with customers' contacts, its messages and marks: those who talk to customers. */
  "sales.recover": ["admin", "operator", "producer"],
  /** The recovery delays and message template of the account. */
  "sales.settings": ["admin", "producer"],
  /** The balance the console calculates (Saldo), its release calendar and extrato. */
  "balance.view": ["admin", "operator", "producer", "viewer"],
  /** Recording the balance read on the gateway's panel: those who answer for the account's money. */
  "balance.enter": ["admin", "producer"],
  "webhooks.view": ["admin", "operator", "producer", "viewer"],
  "account.keys.manage": ["admin", "producer"],
  /** Where the account's confirmed events go: health, attempts and the events sent. */
  "destinations.view": ["admin", "operator", "producer"],
  /** Only those who administer the account add, change, pause, rotate or replay. */
  "destinations.manage": ["admin", "producer"],
  "profile.manage": ["admin", "operator", "producer", "viewer"],
  "accounts.create": ["admin"],
  "users.manage": ["admin"],
  "audit.view": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const GLOBAL_PERMISSIONS = [
  "profile.manage",
  "accounts.create",
  "users.manage",
  "audit.view",
] as const satisfies readonly Permission[];

export function roleCan(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function isGlobalPermission(permission: Permission): boolean {
  return (GLOBAL_PERMISSIONS as readonly Permission[]).includes(permission);
}
