import { describe, expect, it } from "vitest";
import { currentWithdraw } from "../withdraw-view";

describe("currentWithdraw", () => {
  const answer = { id: "w1", status: "PENDING", amount: 10, updatedAt: "2026-01-01T10:00:00.000Z" };

  it("reads the transfer's confirmed status, not the creation answer's", () => {
    const at = new Date("2026-01-01T10:05:00.000Z");
    expect(currentWithdraw(answer, { withdrawStatus: "COMPLETED", withdrawStatusAt: at })).toEqual({
      ...answer,
      status: "COMPLETED",
      updatedAt: at.toISOString(),
    });
  });

  it("keeps the answer when the transfer knows nothing newer", () => {
    expect(currentWithdraw(answer, { withdrawStatus: null, withdrawStatusAt: null })).toBe(answer);
    expect(currentWithdraw(null, { withdrawStatus: "COMPLETED", withdrawStatusAt: null })).toBeNull();
    expect(currentWithdraw(answer, { withdrawStatus: "PENDING", withdrawStatusAt: new Date("2025-12-31T00:00:00Z") })).toEqual(answer);
  });
});
