import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { decryptSecret } from "@/lib/crypto/secrets";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";
import { totpCodeAt, totpStep } from "../totp";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("base64url");

const targets = await testDatabases();
const PASSWORD = "correct horse battery staple";

type Authorize = (
  credentials: Record<string, string>,
  req: { headers: Record<string, string> },
) => Promise<{ id: string; sessionId: string } | null>;

async function signInWith(
  credentials: Record<string, string>,
  ip = "203.0.113.9",
): Promise<{ ok: true; user: { id: string; sessionId: string } } | { ok: false; error: string }> {
  const { authOptions } = await import("../options");
  const provider = authOptions().providers[0] as unknown as { options: { authorize: Authorize } };
  try {
    const user = await provider.options.authorize(credentials, { headers: { "x-forwarded-for": ip } });
    return user ? { ok: true, user } : { ok: false, error: "null" };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

async function newUser(role: "admin" | "producer" | "operator" | "viewer" = "producer") {
  const { createUser } = await import("@/lib/users/queries");
  const email = `u-${randomBytes(4).toString("hex")}@example.com`;
  const id = await createUser({ email, name: "Pessoa", password: PASSWORD, role, accountIds: [] }, null);
  return { id, email, role };
}

async function keyOf(userId: string, column: "pending" | "active"): Promise<Uint8Array> {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  const stored = column === "pending" ? row!.totpPendingSecretEncrypted : row!.totpSecretEncrypted;
  return new Uint8Array(Buffer.from(decryptSecret(stored!), "base64"));
}

/** Enrols the user and returns the key, the recovery codes and the step the enrolment used. */
async function enrol(user: { id: string; email: string }, now = new Date()) {
  const { startEnrolment, confirmEnrolment } = await import("../second-factor");
  await startEnrolment(user);
  const key = await keyOf(user.id, "pending");
  const result = await confirmEnrolment(user, totpCodeAt(key, totpStep(now)), { ip: null, sessionId: null }, now);
  expect(result.outcome).toBe("ok");
  return { key, recoveryCodes: result.recoveryCodes!, step: totpStep(now) };
}

describe("TOTP (RFC 6238)", () => {
  it("matches the RFC's SHA-1 test vectors, cut to six digits", () => {
    const key = new Uint8Array(Buffer.from("12345678901234567890"));
    expect(totpCodeAt(key, totpStep(new Date(59_000)))).toBe("287082");
    expect(totpCodeAt(key, totpStep(new Date(1_111_111_109_000)))).toBe("081804");
    expect(totpCodeAt(key, totpStep(new Date(2_000_000_000_000)))).toBe("279037");
  });
});

describe("the client address", () => {
  it("comes from the socket: a spoofed X-Forwarded-For changes nothing without a trusted proxy", async () => {
    const { forwardedFor } = await import("@/lib/http/forwarded-for.mjs");
    const { clientIp } = await import("@/lib/http/client-ip");
    for (const spoof of ["1.2.3.4", "9.9.9.9, 8.8.8.8", "", undefined, ["5.5.5.5", "6.6.6.6"]]) {
      const headers = { "x-forwarded-for": forwardedFor(spoof, "198.51.100.7", 0) };
      expect(clientIp(headers, 0)).toBe("198.51.100.7");
    }
  });

  it("looks past exactly the trusted proxies, never further left", async () => {
    const { forwardedFor } = await import("@/lib/http/forwarded-for.mjs");
    const { clientIp } = await import("@/lib/http/client-ip");
    // The proxy at 10.0.0.2 appended the address it saw; the client made up the first entry.
    const headers = { "x-forwarded-for": forwardedFor("6.6.6.6, 203.0.113.5", "10.0.0.2", 1) };
    expect(clientIp(headers, 1)).toBe("203.0.113.5");
    // A request that skipped the proxy has only the socket to go by.
    expect(clientIp({ "x-forwarded-for": forwardedFor(undefined, "198.51.100.7", 1) }, 1)).toBe("198.51.100.7");
  });
});

describe.each(targets)("access hardening on $name", (target: TestDatabase) => {
  bindDatabase(target);

  it("lets at most the limit through a burst of 60 attempts, then pauses with growing delays", async () => {
    const { takeAttempt, SIGN_IN_EMAIL_RULE } = await import("@/lib/users/throttle");
    const key = `test:${randomBytes(4).toString("hex")}`;
    const now = new Date();
    const verdicts = await Promise.all(Array.from({ length: 60 }, () => takeAttempt(key, SIGN_IN_EMAIL_RULE, now)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(SIGN_IN_EMAIL_RULE.limit);
    const refused = verdicts.find((v) => !v.allowed);
    expect(refused && !refused.allowed && refused.retryAfterMs).toBe(60_000);
    // After the first pause one more try goes through, and the next pause is twice as long.
    const later = new Date(now.getTime() + 61_000);
    expect((await takeAttempt(key, SIGN_IN_EMAIL_RULE, later)).allowed).toBe(true);
    const next = await takeAttempt(key, SIGN_IN_EMAIL_RULE, later);
    expect(next.allowed ? 0 : next.retryAfterMs).toBe(120_000);
    // Never a permanent lock-out: once the window has passed, the owner starts afresh.
    expect((await takeAttempt(key, SIGN_IN_EMAIL_RULE, new Date(now.getTime() + 16 * 60_000))).allowed).toBe(true);
  });

  it("a burst of 60 sign-ins, the right password among them, gets at most 5 password checks", async () => {
    const user = await newUser();
    const attempts = Array.from({ length: 60 }, (_, i) =>
      signInWith({ email: user.email, password: i === 30 ? PASSWORD : `wrong-${i}` }, `198.51.100.${i + 1}`),
    );
    const results = await Promise.all(attempts);
    const checked = results.filter((r) => r.ok || !r.error.startsWith("throttled"));
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(results.filter((r) => !r.ok && r.error.startsWith("throttled")).length).toBeGreaterThanOrEqual(55);
  });

  it("signing out revokes the session row, so a replayed cookie is refused; role changes end sessions too", async () => {
    const { findSessionUser, revokeSession } = await import("../sessions");
    const { authOptions } = await import("../options");
    const { setUserRole } = await import("@/lib/users/queries");
    const user = await newUser();
    const first = await signInWith({ email: user.email, password: PASSWORD });
    const second = await signInWith({ email: user.email, password: PASSWORD });
    if (!first.ok || !second.ok) throw new Error("sign-in failed");
    expect(await findSessionUser(first.user.sessionId, user.id, 1)).not.toBeNull();
    // next-auth's sign-out event with the token the cookie carried.
    await authOptions().events!.signOut!({ token: { sid: first.user.sessionId }, session: undefined as never });
    expect(await findSessionUser(first.user.sessionId, user.id, 1)).toBeNull();
    expect(await findSessionUser(second.user.sessionId, user.id, 1)).not.toBeNull();
    await setUserRole(user.id, "viewer", { id: "admin", email: "admin@example.com" });
    expect(await findSessionUser(second.user.sessionId, user.id, 1)).toBeNull();
    await revokeSession("no-such-session");
  });

  it("enrols TOTP, asks the code at sign-in, accepts a code once, and spends recovery codes", async () => {
    const { checkSecondFactor, secondFactorStatus } = await import("../second-factor");
    const user = await newUser();
    const now = new Date();
    const { key, recoveryCodes, step } = await enrol(user, now);
    expect(recoveryCodes).toHaveLength(10);
    expect((await secondFactorStatus(user.id)).enabled).toBe(true);

    expect(await signInWith({ email: user.email, password: PASSWORD })).toEqual({ ok: false, error: "code_required" });
    expect(
      await signInWith({ email: user.email, password: PASSWORD, code: "000000" === totpCodeAt(key, step + 1) ? "111111" : "000000" }),
    ).toEqual({
      ok: false,
      error: "code_invalid",
    });
    // The enrolment's own code was spent; the next step's code works once.
    const nextCode = totpCodeAt(key, step + 1);
    const at = new Date((step + 1) * 30_000 + 1_000);
    expect((await checkSecondFactor(user, totpCodeAt(key, step), { ip: null, purpose: "test" }, at)).outcome).toBe("wrong");
    expect((await checkSecondFactor(user, nextCode, { ip: null, purpose: "test" }, at)).outcome).toBe("ok");
    expect((await checkSecondFactor(user, nextCode, { ip: null, purpose: "test" }, at)).outcome).toBe("wrong");

    const signedIn = await signInWith({ email: user.email, password: PASSWORD, code: recoveryCodes[0]!.toUpperCase() });
    expect(signedIn.ok).toBe(true);
    expect(await signInWith({ email: user.email, password: PASSWORD, code: recoveryCodes[0]! })).toEqual({
      ok: false,
      error: "code_invalid",
    });
    expect((await secondFactorStatus(user.id)).recoveryCodesLeft).toBe(9);
  });

  it("throttles code guesses per user and audits them", async () => {
    const { checkSecondFactor } = await import("../second-factor");
    const user = await newUser();
    const { key, step } = await enrol(user);
    const at = new Date((step + 1) * 30_000 + 1_000);
    const right = totpCodeAt(key, step + 1);
    const wrong = right === "123456" ? "654321" : "123456";
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push((await checkSecondFactor(user, wrong, { ip: null, purpose: "test" }, at)).outcome);
    expect(outcomes.slice(0, 4)).toEqual(["wrong", "wrong", "wrong", "wrong"]);
    expect(outcomes.at(-1)).toBe("throttled");
    expect((await checkSecondFactor(user, right, { ip: null, purpose: "test" }, at)).outcome).toBe("throttled");
    const db = await getDb();
    const { auditLog } = await import("@/lib/db/schema");
    const audit = await db.select().from(auditLog).where(eq(auditLog.userId, user.id));
    expect(audit.filter((a) => a.action === "auth.totp.refused").length).toBeGreaterThanOrEqual(4);
    expect(audit.some((a) => a.action === "auth.totp.throttled")).toBe(true);
  });

  it("asks the code again to confirm money out, and a required role must enrol first", async () => {
    const { confirmMoneyOut } = await import("@/lib/transfers/service");
    const { setRolesRequiringSecondFactor } = await import("../second-factor");
    const audit = { accountId: "acc", ip: null, identifier: "tr-1" };
    const enrolled = await newUser("producer");
    const { key } = await enrol(enrolled);
    const actor = { ...enrolled, role: "producer" as const };
    await expect(confirmMoneyOut(actor, { password: PASSWORD }, audit)).rejects.toMatchObject({ reason: "codeRequired" });
    await expect(
      confirmMoneyOut(
        actor,
        { password: PASSWORD, code: "999999" === totpCodeAt(key, totpStep(new Date()) + 1) ? "888888" : "999999" },
        audit,
      ),
    ).rejects.toMatchObject({
      reason: "wrongCode",
    });
    // A code from the next step (the enrolment spent the current one).
    const future = totpCodeAt(key, totpStep(new Date()) + 1);
    await expect(confirmMoneyOut(actor, { password: PASSWORD, code: future }, audit)).resolves.toBeUndefined();

    const plain = await newUser("producer");
    const plainActor = { ...plain, role: "producer" as const };
    await expect(confirmMoneyOut(plainActor, { password: PASSWORD }, audit)).resolves.toBeUndefined();
    await setRolesRequiringSecondFactor(["producer"], { id: "admin", email: "admin@example.com" }, { ip: null });
    await expect(confirmMoneyOut(plainActor, { password: PASSWORD }, audit)).rejects.toMatchObject({ reason: "secondFactorRequired" });
    await setRolesRequiringSecondFactor([], { id: "admin", email: "admin@example.com" }, { ip: null });
  });

  it("refunds, like transfers, need the app's code from an enrolled user before money leaves", async () => {
    const { secondFactorForMoneyOut, setRolesRequiringSecondFactor } = await import("../second-factor");
    const audit = { ip: null, purpose: "refund" };
    const enrolled = await newUser("operator");
    const { key, step } = await enrol(enrolled);
    const actor = { ...enrolled, role: "operator" as const };
    expect(await secondFactorForMoneyOut(actor, undefined, audit)).toBe("codeRequired");
    const right = totpCodeAt(key, step + 1);
    expect(await secondFactorForMoneyOut(actor, right === "000000" ? "111111" : "000000", audit)).toBe("wrongCode");
    expect(await secondFactorForMoneyOut(actor, right, audit)).toBeNull();

    const plain = { ...(await newUser("operator")), role: "operator" as const };
    expect(await secondFactorForMoneyOut(plain, undefined, audit)).toBeNull();
    await setRolesRequiringSecondFactor(["operator"], { id: "admin", email: "admin@example.com" }, { ip: null });
    expect(await secondFactorForMoneyOut(plain, undefined, audit)).toBe("secondFactorRequired");
    await setRolesRequiringSecondFactor([], { id: "admin", email: "admin@example.com" }, { ip: null });
  });

  it("throttles the password checks inside a session (transfer confirmation, password change)", async () => {
    const { changePassword } = await import("@/lib/users/queries");
    const user = await newUser();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => changePassword(user.id, "not the password", "a brand new password 123")),
    );
    expect(outcomes.filter((o) => o === "wrong_password").length).toBeLessThanOrEqual(5);
    expect(await changePassword(user.id, PASSWORD, "a brand new password 123")).toBe("throttled");
  });
});
