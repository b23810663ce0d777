/**
 * Where the transfer form shows a refused send: under the password, under the authenticator's
 * code (both keep the dialog open to try again), back on the form's fields, or as a refusal
 * above the review. `title`, `detailKey`: message keys; `detail`, `gatewaySaid`: the server's text.
 */
export type SendFailureView<F> =
  | { show: "password"; key: string }
  | { show: "code"; key: string }
  | { show: "fields"; fieldErrors: Record<string, F> }
  | { show: "refusal"; title: string; detailKey?: string; detail?: string; gatewaySaid?: string };

const CODE_ERRORS = ["transfers.errors.wrongCode", "transfers.errors.codeRequired", "transfers.errors.tooManyAttempts"];

export function sendFailureView<F>(failure: { error: string; message?: string; fieldErrors?: Record<string, F> }): SendFailureView<F> {
  const { error, message, fieldErrors } = failure;
  // Too many attempts is about the password when the server names that field, else about the code.
  if (error === "transfers.errors.wrongPassword" || (error === "transfers.errors.tooManyAttempts" && fieldErrors?.password)) {
    return { show: "password", key: error };
  }
  if (CODE_ERRORS.includes(error)) return { show: "code", key: error };
  if (error === "errors.validation") {
    // The action checks the transfer under `transfer.`: the form's fields are named without it.
    return {
      show: "fields",
      fieldErrors: Object.fromEntries(Object.entries(fieldErrors ?? {}).map(([k, v]) => [k.replace(/^transfer\./, ""), v])),
    };
  }
  if (error.startsWith("transfers.errors.refused.")) {
    // The console explains the refusal in its words; the gateway's own text goes to the tooltip.
    return { show: "refusal", title: "transfers.errors.gatewayRefused", detailKey: error, gatewaySaid: message };
  }
  return { show: "refusal", title: error, detail: message };
}
