import { describe, expect, it } from "vitest";
import { sendFailureView } from "../send-failure";

describe("sendFailureView", () => {
  it("puts a wrong password under the password, and too many attempts there when the server names that field", () => {
    expect(sendFailureView({ error: "transfers.errors.wrongPassword" })).toEqual({
      show: "password",
      key: "transfers.errors.wrongPassword",
    });
    expect(sendFailureView({ error: "transfers.errors.tooManyAttempts", fieldErrors: { password: ["x"] } })).toEqual({
      show: "password",
      key: "transfers.errors.tooManyAttempts",
    });
  });

  it("puts code errors, and too many attempts without a password field, under the code", () => {
    for (const error of ["transfers.errors.wrongCode", "transfers.errors.codeRequired", "transfers.errors.tooManyAttempts"]) {
      expect(sendFailureView({ error })).toEqual({ show: "code", key: error });
    }
  });

  it("sends validation errors back to the form's fields, named without the action's `transfer.` prefix", () => {
    expect(
      sendFailureView({
        error: "errors.validation",
        fieldErrors: { "transfer.pixKey": ["bad"], "transfer.owner.name": ["empty"], password: ["?"] },
      }),
    ).toEqual({ show: "fields", fieldErrors: { pixKey: ["bad"], "owner.name": ["empty"], password: ["?"] } });
    expect(sendFailureView({ error: "errors.validation" })).toEqual({ show: "fields", fieldErrors: {} });
  });

  it("explains a gateway refusal in the console's words with the gateway's text aside, and shows any other error as it came", () => {
    expect(sendFailureView({ error: "transfers.errors.refused.ownerIp", message: "IP inválido" })).toEqual({
      show: "refusal",
      title: "transfers.errors.gatewayRefused",
      detailKey: "transfers.errors.refused.ownerIp",
      gatewaySaid: "IP inválido",
    });
    expect(sendFailureView({ error: "transfers.errors.dailyLimit", message: "R$ 10,00 left" })).toEqual({
      show: "refusal",
      title: "transfers.errors.dailyLimit",
      detail: "R$ 10,00 left",
    });
  });
});
