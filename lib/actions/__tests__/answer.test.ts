import { describe, expect, it } from "vitest";
import { answerOf, isNoAnswer } from "@/lib/actions/answer";

describe("answerOf: the action's answer, or no answer at all", () => {
  it("passes an answer through, a success or a refusal", async () => {
    expect(await answerOf(async () => ({ ok: true as const, data: 1 }))).toEqual({ ok: true, data: 1 });
    const refused = await answerOf(async () => ({
      ok: false as const,
      error: "errors.validation",
      fieldErrors: { amount: ["errors.required"] },
    }));
    expect(isNoAnswer(refused)).toBe(false);
    expect(refused).toMatchObject({ ok: false, error: "errors.validation" });
  });

  it("a request that fails (the server died, the network dropped) is no answer, not a failure", async () => {
    const lost = await answerOf(() => Promise.reject(new TypeError("Failed to fetch")));
    expect(isNoAnswer(lost)).toBe(true);
    expect(lost).not.toHaveProperty("ok");
  });

  it("a response that is not an action's answer (a proxy's page, an empty body) is no answer either", async () => {
    for (const odd of [undefined, null, "<html>502</html>", {}]) {
      expect(isNoAnswer(await answerOf(async () => odd as never))).toBe(true);
    }
  });
});
