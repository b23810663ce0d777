import { describe, expect, it } from "vitest";
import { PERMISSIONS, roleCan, type Permission } from "@/lib/auth/permissions";

const allowed = (role: "admin" | "operator" | "producer" | "viewer") =>
  (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => roleCan(role, permission)).sort();

describe("role matrix", () => {
  it("gives the admin every permission", () => {
    expect(allowed("admin")).toEqual((Object.keys(PERMISSIONS) as Permission[]).sort());
  });

  it("keeps viewers read-only", () => {
    expect(allowed("viewer")).toEqual(["account.view", "profile.manage", "transactions.view", "transfers.view", "webhooks.view"].sort());
  });

  it("lets operators operate and request refunds, but not transfer or manage keys", () => {
    for (const permission of ["charges.create", "refunds.request", "checkout.create", "ledger.add"] as const) {
      expect(roleCan("operator", permission), permission).toBe(true);
    }
    for (const permission of ["transfers.create", "transfers.view", "account.keys.manage", "users.manage", "audit.view"] as const) {
      expect(roleCan("operator", permission), permission).toBe(false);
    }
  });

  it("lets producers do everything on their accounts, transfers and keys included, but not administer", () => {
    for (const permission of ["charges.create", "transfers.create", "account.keys.manage", "refunds.request"] as const) {
      expect(roleCan("producer", permission), permission).toBe(true);
    }
    for (const permission of ["users.manage", "accounts.create", "audit.view"] as const) {
      expect(roleCan("producer", permission), permission).toBe(false);
    }
  });
});
