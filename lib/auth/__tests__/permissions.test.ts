import { describe, expect, it } from "vitest";
import { PERMISSIONS, roleCan, type Permission } from "@/lib/auth/permissions";

const allowed = (role: "admin" | "operator" | "producer" | "viewer") =>
  (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => roleCan(role, permission)).sort();

describe("role matrix", () => {
  it("gives the admin every permission", () => {
    expect(allowed("admin")).toEqual((Object.keys(PERMISSIONS) as Permission[]).sort());
  });

  it("keeps viewers read-only", () => {
    expect(allowed("viewer")).toEqual(
      [
        "account.view",
        "balance.view",
        "payouts.view",
        "profile.manage",
        "sales.view",
        "transactions.view",
        "transfers.view",
        "webhooks.view",
      ].sort(),
    );
  });

  it("lets operators operate and request refunds, but not transfer or manage keys", () => {
    for (const permission of ["charges.create", "refunds.request", "checkout.create", "ledger.add"] as const) {
      expect(roleCan("operator", permission), permission).toBe(true);
    }
    for (const permission of ["transfers.create", "transfers.view", "account.keys.manage", "users.manage", "audit.view"] as const) {
      expect(roleCan("operator", permission), permission).toBe(false);
    }
  });

  it("shows sales figures to every role, customers' contacts to those who talk to customers, and recovery settings to administrators and producers", () => {
    for (const role of ["admin", "operator", "producer", "viewer"] as const) expect(roleCan(role, "sales.view"), role).toBe(true);
    expect(roleCan("viewer", "sales.recover")).toBe(false);
    expect(roleCan("operator", "sales.recover")).toBe(true);
    expect(roleCan("operator", "sales.settings")).toBe(false);
    expect(roleCan("producer", "sales.settings")).toBe(true);
  });

  it("lets operators prepare batch payouts but only those who may move money approve them, and only administrators allow self-approval", () => {
    expect(roleCan("operator", "payouts.prepare")).toBe(true);
    expect(roleCan("operator", "payouts.approve")).toBe(false);
    expect(roleCan("producer", "payouts.approve")).toBe(true);
    expect(roleCan("viewer", "payouts.prepare")).toBe(false);
    for (const role of ["operator", "producer", "viewer"] as const) expect(roleCan(role, "payouts.settings"), role).toBe(false);
    expect(roleCan("admin", "payouts.settings")).toBe(true);
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
