import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PERMISSIONS, roleCan, type Permission } from "@/lib/auth/permissions";
import { ROLES } from "@/lib/db/schema-enums";

function filesNamed(dir: string, name: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return filesNamed(path, name);
    return entry === name ? [path] : [];
  });
}

/** Every server action, as written in the code: name → permission it checks. */
function actionsInCode(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of filesNamed("app", "actions.ts").sort()) {
    const source = readFileSync(file, "utf8");
    const declared = [...source.matchAll(/export const (\w+) = defineAction\(\s*\{\s*permission:\s*"([\w.]+)"/g)].map((m) => [m[1], m[2]]);
    // Factories: `export const x = helper(...)` where `function helper` wraps one defineAction.
    for (const [, name, helper] of source.matchAll(/export const (\w+) = (\w+)\(/g)) {
      if (helper === "defineAction") continue;
      const body = source.match(new RegExp(`function ${helper}\\b[\\s\\S]*?defineAction\\(\\s*\\{\\s*permission:\\s*"([\\w.]+)"`));
      if (body) declared.push([name, body[1]]);
    }
    const exported = source.match(/export (const|async function|function) \w+/g) ?? [];
    expect(declared.length, `${file}: every export is a defineAction with a literal permission`).toBe(exported.length);
    for (const [name, permission] of declared) out[`${file}#${name}`] = permission;
  }
  return out;
}

/** The reviewed table. A new action must be added here, with the permission it needs. */
const EXPECTED_ACTIONS: Record<string, Permission> = {
  "app/(dashboard)/actions.ts#switchAccountAction": "account.view",
  "app/(dashboard)/actions.ts#signOutAuditAction": "profile.manage",
  ...Object.fromEntries(
    [
      "createDestinationAction",
      "updateDestinationAction",
      "setDestinationStateAction",
      "rotateDestinationSecretAction",
      "deleteDestinationAction",
      "sendTestEventAction",
      "resendEventAction",
      "countReplayAction",
      "replaySinceAction",
      "createListenKeyAction",
      "revokeListenKeyAction",
    ].map((name) => [`app/(dashboard)/[account]/destinations/actions.ts#${name}`, "destinations.manage" as Permission]),
  ),
  "app/(dashboard)/accounts/actions.ts#createAccountAction": "accounts.create",
  "app/(dashboard)/accounts/actions.ts#updateAccountAction": "account.keys.manage",
  "app/(dashboard)/accounts/actions.ts#replaceSecretKeyAction": "account.keys.manage",
  "app/(dashboard)/accounts/actions.ts#replaceWebhookTokenAction": "account.keys.manage",
  "app/(dashboard)/accounts/actions.ts#testConnectionAction": "account.view",
  "app/(dashboard)/admin/users/actions.ts#createUserAction": "users.manage",
  "app/(dashboard)/admin/users/actions.ts#setUserActiveAction": "users.manage",
  "app/(dashboard)/admin/users/actions.ts#setUserRoleAction": "users.manage",
  "app/(dashboard)/admin/users/actions.ts#setUserAccountsAction": "users.manage",
  "app/(dashboard)/admin/users/actions.ts#setRequiredSecondFactorRolesAction": "users.manage",
  "app/(dashboard)/[account]/charges/actions.ts#createChargeAction": "charges.create",
  "app/(dashboard)/[account]/charges/actions.ts#checkOperationAction": "charges.create",
  "app/(dashboard)/[account]/charges/actions.ts#operationStateAction": "transactions.view",
  "app/(dashboard)/[account]/checkout-links/actions.ts#createCheckoutLinkAction": "checkout.create",
  "app/(dashboard)/[account]/lookup/actions.ts#lookupTransactionAction": "transactions.view",
  "app/(dashboard)/[account]/lookup/actions.ts#addToLedgerAction": "ledger.add",
  "app/(dashboard)/profile/actions.ts#changePasswordAction": "profile.manage",
  "app/(dashboard)/profile/actions.ts#startSecondFactorAction": "profile.manage",
  "app/(dashboard)/profile/actions.ts#confirmSecondFactorAction": "profile.manage",
  "app/(dashboard)/profile/actions.ts#regenerateRecoveryCodesAction": "profile.manage",
  "app/(dashboard)/profile/actions.ts#disableSecondFactorAction": "profile.manage",
  "app/(dashboard)/[account]/refunds/actions.ts#requestRefundAction": "refunds.request",
  "app/(dashboard)/[account]/refunds/actions.ts#refreshRefundAction": "ledger.refresh",
  "app/(dashboard)/[account]/transactions/actions.ts#saveViewAction": "transactions.view",
  "app/(dashboard)/[account]/transactions/actions.ts#deleteViewAction": "transactions.view",
  "app/(dashboard)/[account]/transactions/actions.ts#countTransactionsAction": "transactions.view",
  "app/(dashboard)/[account]/transactions/actions.ts#refreshTransactionAction": "ledger.refresh",
  "app/(dashboard)/[account]/transfers/actions.ts#submitTransferAction": "transfers.create",
  "app/(dashboard)/[account]/transfers/actions.ts#saveTransferSettingsAction": "account.keys.manage",
  ...Object.fromEntries(
    [
      ["createPayoutBatchAction", "payouts.prepare"],
      ["replacePayoutRowsAction", "payouts.prepare"],
      ["fixPayoutRowAction", "payouts.prepare"],
      ["setPayoutRowRemovedAction", "payouts.prepare"],
      ["removeRowsWithErrorsAction", "payouts.prepare"],
      ["submitPayoutBatchAction", "payouts.prepare"],
      ["withdrawPayoutBatchAction", "payouts.prepare"],
      ["approvePayoutBatchAction", "payouts.approve"],
      ["rejectPayoutBatchAction", "payouts.approve"],
      // Stopping money is everyone's who prepares batches; starting it again is the approvers'.
      ["pausePayoutBatchAction", "payouts.prepare"],
      ["resumePayoutBatchAction", "payouts.approve"],
      ["cancelPayoutBatchAction", "payouts.prepare"],
      ["setSelfApprovalAction", "payouts.settings"],
    ].map(([name, permission]) => [`app/(dashboard)/[account]/payouts/actions.ts#${name}`, permission as Permission]),
  ),
  "app/(dashboard)/[account]/sales/recovery/actions.ts#markRecoveryAction": "sales.recover",
  "app/(dashboard)/[account]/sales/recovery/actions.ts#recordRecoveryContactAction": "sales.recover",
  "app/(dashboard)/[account]/sales/recovery/actions.ts#saveRecoverySettingsAction": "sales.settings",
  "app/(dashboard)/[account]/subscriptions/actions.ts#saveSubscriptionRulesAction": "sales.settings",
  "app/(dashboard)/[account]/balance/actions.ts#recordBalanceEntryAction": "balance.enter",
  "app/(dashboard)/[account]/webhooks/actions.ts#emitSandboxEventAction": "charges.create",
  "app/(dashboard)/[account]/webhooks/actions.ts#configureSandboxWebhookUrlAction": "charges.create",
};

/** Actions a viewer may run: reads only (saved views are the viewer's own filters, not account data). */
const READ_ONLY_ACTIONS = new Set([
  "switchAccountAction",
  "signOutAuditAction",
  "testConnectionAction",
  "operationStateAction",
  "lookupTransactionAction",
  "saveViewAction",
  "deleteViewAction",
  "countTransactionsAction",
  "changePasswordAction",
  // The user's own second factor: their sign-in, not the ledger or anyone's money.
  "startSecondFactorAction",
  "confirmSecondFactorAction",
  "regenerateRecoveryCodesAction",
  "disableSecondFactorAction",
]);

/** Route handlers: how each is guarded. A new route must be added here. */
const EXPECTED_ROUTES: Record<string, { permission: Permission } | { guard: string }> = {
  // A signed-in administrator, or `npm run backup`'s one-minute token signed with the session secret.
  "app/api/admin/backup/route.ts": { permission: "users.manage" },
  "app/api/auth/[...nextauth]/route.ts": { guard: "next-auth" },
  "app/api/cron/reconcile/route.ts": { guard: "CRON_SECRET" },
  // `npm run listen`: a listen key made by someone with destinations.manage, for its own account only.
  "app/api/destinations/listen/route.ts": { guard: "authenticateListen" },
  "app/api/destinations/listen/deliveries/route.ts": { guard: "authenticateListen" },
  "app/api/feed/route.ts": { permission: "webhooks.view" },
  "app/api/feed/stream/route.ts": { permission: "webhooks.view" },
  "app/api/transactions/export/route.ts": { permission: "transactions.view" },
  "app/(dashboard)/[account]/payouts/template/[format]/route.ts": { permission: "payouts.view" },
  "app/(dashboard)/[account]/payouts/[batchId]/results/[format]/route.ts": { permission: "payouts.view" },
  "app/(dashboard)/[account]/sales/export/[table]/route.ts": { permission: "sales.view" },
  "app/(dashboard)/[account]/balance/export/[format]/route.ts": { permission: "balance.view" },
  "app/(dashboard)/[account]/subscriptions/export/route.ts": { permission: "transactions.view" },
  "app/api/webhooks/[accountId]/route.ts": { guard: "handleWebhookRequest" },
  "app/api/webhooks/[accountId]/[callbackKey]/route.ts": { guard: "handleWebhookRequest" },
};

/** Role × permission, written out in full. */
const MATRIX: Record<(typeof ROLES)[number], Permission[]> = {
  admin: Object.keys(PERMISSIONS) as Permission[],
  operator: [
    "account.view",
    "transactions.view",
    "charges.create",
    "refunds.request",
    "ledger.add",
    "ledger.refresh",
    "checkout.create",
    "payouts.view",
    "payouts.prepare",
    "sales.view",
    "sales.recover",
    "balance.view",
    "webhooks.view",
    "destinations.view",
    "profile.manage",
  ],
  producer: [
    "account.view",
    "transactions.view",
    "charges.create",
    "refunds.request",
    "ledger.add",
    "ledger.refresh",
    "checkout.create",
    "transfers.view",
    "transfers.create",
    "payouts.view",
    "payouts.prepare",
    "payouts.approve",
    "sales.view",
    "sales.recover",
    "sales.settings",
    "balance.view",
    "balance.enter",
    "webhooks.view",
    "account.keys.manage",
    "destinations.view",
    "destinations.manage",
    "profile.manage",
  ],
  viewer: [
    "account.view",
    "transactions.view",
    "transfers.view",
    "payouts.view",
    "sales.view",
    "balance.view",
    "webhooks.view",
    "profile.manage",
  ],
};

describe("permission matrix", () => {
  it("lists every action with the permission it checks", () => {
    expect(actionsInCode()).toEqual(EXPECTED_ACTIONS);
  });

  it.each(ROLES.flatMap((role) => (Object.keys(PERMISSIONS) as Permission[]).map((permission) => [role, permission] as const)))(
    "%s × %s",
    (role, permission) => {
      expect(roleCan(role, permission)).toBe(MATRIX[role].includes(permission));
    },
  );

  it.each(ROLES.flatMap((role) => Object.keys(EXPECTED_ACTIONS).map((action) => [role, action] as const)))(
    "%s × action %s",
    (role, action) => {
      const allowed = roleCan(role, EXPECTED_ACTIONS[action]);
      const name = action.split("#")[1];
      if (role === "viewer") expect(allowed, "viewers are read-only").toBe(READ_ONLY_ACTIONS.has(name));
      if (role === "admin") expect(allowed).toBe(true);
      expect(allowed).toBe(MATRIX[role].includes(EXPECTED_ACTIONS[action]));
    },
  );

  it("every server action is written through defineAction in an actions.ts file, but the sign-in page's language switch", () => {
    const everyFile = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => (statSync(join(dir, entry)).isDirectory() ? everyFile(join(dir, entry)) : [join(dir, entry)]));
    const serverFiles = ["app", "components", "lib"]
      .flatMap(everyFile)
      .filter((file) => /\.tsx?$/.test(file) && /^\s*["']use server["']/.test(readFileSync(file, "utf8")));
    expect(serverFiles.filter((file) => !file.endsWith("actions.ts"))).toEqual([]);
    expect(serverFiles.filter((file) => !file.startsWith("app/"))).toEqual(["lib/shell/actions.ts"]);
    expect(readFileSync("lib/shell/actions.ts", "utf8").match(/export (async function|const|function) \w+/g)).toEqual([
      "export async function setLocaleAction",
    ]);
  });

  it("lists every route handler and its guard", () => {
    const files = filesNamed("app", "route.ts").sort();
    expect(files).toEqual(Object.keys(EXPECTED_ROUTES).sort());
    for (const [file, guard] of Object.entries(EXPECTED_ROUTES)) {
      const source = readFileSync(file, "utf8");
      if ("guard" in guard) expect(source, file).toContain(guard.guard);
      else if (guard.permission === "webhooks.view") {
        expect(source).toContain("authorizeFeed");
        expect(readFileSync("lib/feed/access.ts", "utf8")).toContain(`authorize("${guard.permission}")`);
      } else expect(source, file).toMatch(new RegExp(`authorize\\("${guard.permission.replace(".", "\\.")}"[,)]`));
    }
  });

  it.each(ROLES.flatMap((role) => Object.keys(EXPECTED_ROUTES).map((route) => [role, route] as const)))("%s × route %s", (role, route) => {
    const guard = EXPECTED_ROUTES[route];
    if ("permission" in guard) expect(roleCan(role, guard.permission)).toBe(MATRIX[role].includes(guard.permission));
    else expect(["next-auth", "CRON_SECRET", "handleWebhookRequest", "authenticateListen"]).toContain(guard.guard);
  });
});
