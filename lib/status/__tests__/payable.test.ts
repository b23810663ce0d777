import { describe, expect, it } from "vitest";
import { isPayable } from "../machine";

describe("isPayable: the one rule behind every code to pay", () => {
  it("a charge awaiting payment, with no status yet or an untold status may still be paid", () => {
    for (const status of [null, undefined, "OK", "PENDING", "waiting payment", "SOMETHING_NEW"]) expect(isPayable(status)).toBe(true);
  });

  it("a charge the gateway confirmed paid or closed may not", () => {
    for (const status of ["COMPLETED", "REFUNDED", "EXPIRED", "CANCELED", "FAILED", "CHARGED_BACK"]) expect(isPayable(status)).toBe(false);
  });

  it("a subscription is payable until its first payment", () => {
    expect(isPayable("PENDING", "pix_subscription")).toBe(true);
    expect(isPayable("ACTIVE", "pix_subscription")).toBe(false);
    expect(isPayable("CANCELED", "card_subscription")).toBe(false);
  });
});
