import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { recoveryCodes, securitySettings, users, type Role } from "@/lib/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secrets";
import { writeAudit } from "@/lib/audit/log";
import { revokeUserSessions } from "./sessions";
import { IN_SESSION_RULE, attemptKeys, clearAttempts, takeAttempt, type AttemptVerdict } from "@/lib/users/throttle";
import { hashRecoveryCode, looksLikeRecoveryCode, matchTotp, newRecoveryCodes, newTotpKey, totpKeyText, totpKeyUri } from "./totp";

type Actor = { id: string; email: string };
type Audit = { ip: string | null };

const keyToText = (key: Uint8Array) => Buffer.from(key).toString("base64");
const keyFromText = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

export type SecondFactorStatus = { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number; requiredForRole: boolean };

export async function secondFactorStatus(userId: string): Promise<SecondFactorStatus> {
  const db = await getDb();
  const [user] = await db.select({ enabledAt: users.totpEnabledAt, role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return {
    enabled: !!user?.enabledAt,
    enabledAt: user?.enabledAt?.toISOString() ?? null,
    recoveryCodesLeft: left?.n ?? 0,
    requiredForRole: user ? (await rolesRequiringSecondFactor()).includes(user.role) : false,
  };
}

/** A new key waiting for its first code; replaces any earlier unfinished enrolment. */
export async function startEnrolment(actor: Actor): Promise<{ uri: string; keyText: string }> {
  const db = await getDb();
  const key = newTotpKey();
  await db
    .update(users)
    .set({ totpPendingSecretEncrypted: encryptSecret(keyToText(key)) })
    .where(eq(users.id, actor.id));
  return { uri: totpKeyUri(actor.email, key), keyText: totpKeyText(key) };
}

export type CodeCheck =
  { outcome: "ok" } | { outcome: "wrong" } | { outcome: "throttled"; retryAfterMs: number } | { outcome: "not_enrolling" };

async function throttled(userId: string): Promise<AttemptVerdict> {
  return takeAttempt(attemptKeys.user(userId, "totp"), IN_SESSION_RULE);
}

/** Turns the pending key on once a code from it matches; returns the recovery codes to show once. */
export async function confirmEnrolment(
  actor: Actor,
  code: string,
  audit: Audit & { sessionId: string | null },
  now = new Date(),
): Promise<CodeCheck & { recoveryCodes?: string[] }> {
  const db = await getDb();
  const [user] = await db.select({ pending: users.totpPendingSecretEncrypted }).from(users).where(eq(users.id, actor.id)).limit(1);
  if (!user?.pending) return { outcome: "not_enrolling" };
  const verdict = await throttled(actor.id);
  if (!verdict.allowed) return { outcome: "throttled", retryAfterMs: verdict.retryAfterMs };
  const step = matchTotp(keyFromText(decryptSecret(user.pending)), code, now, null);
  if (step === null) {
    await writeAudit({ actor, action: "auth.totp.enrol_refused", ip: audit.ip });
    return { outcome: "wrong" };
  }
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecretEncrypted: user.pending, totpPendingSecretEncrypted: null, totpEnabledAt: now, totpLastStep: step, updatedAt: now })
      .where(eq(users.id, actor.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, actor.id));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: actor.id, codeHash: hashRecoveryCode(c) })));
  });
  await clearAttempts([attemptKeys.user(actor.id, "totp")]);
  // A second factor changes who may be signed in: every other browser signs in again.
  await revokeUserSessions(actor.id, audit.sessionId ?? undefined);
  await writeAudit({ actor, action: "auth.totp.enabled", ip: audit.ip });
  return { outcome: "ok", recoveryCodes: codes };
}

/**
 * Checks a code from the app (accepted once) or an unused recovery code (spent). Throttled per
 * user whatever the session, and audited when refused.
 */
export async function checkSecondFactor(
  actor: Actor,
  code: string,
  audit: Audit & { purpose: string },
  now = new Date(),
): Promise<CodeCheck> {
  const db = await getDb();
  const [user] = await db
    .select({ secret: users.totpSecretEncrypted, lastStep: users.totpLastStep })
    .from(users)
    .where(eq(users.id, actor.id))
    .limit(1);
  if (!user?.secret) return { outcome: "not_enrolling" };
  const verdict = await throttled(actor.id);
  if (!verdict.allowed) {
    await writeAudit({ actor, action: "auth.totp.throttled", ip: audit.ip, details: { purpose: audit.purpose } });
    return { outcome: "throttled", retryAfterMs: verdict.retryAfterMs };
  }
  let accepted = false;
  let method: "app" | "recovery_code" = "app";
  if (looksLikeRecoveryCode(code)) {
    method = "recovery_code";
    const spent = await db
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(recoveryCodes.userId, actor.id), eq(recoveryCodes.codeHash, hashRecoveryCode(code)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    accepted = spent.length === 1;
  } else {
    const step = matchTotp(keyFromText(decryptSecret(user.secret)), code, now, user.lastStep);
    if (step !== null) {
      // Conditional on the step still being newer: two requests with one code cannot both pass.
      const advanced = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, actor.id), sql`coalesce(${users.totpLastStep}, -1) < ${step}`))
        .returning({ id: users.id });
      accepted = advanced.length === 1;
    }
  }
  if (!accepted) {
    await writeAudit({ actor, action: "auth.totp.refused", ip: audit.ip, details: { purpose: audit.purpose, method } });
    return { outcome: "wrong" };
  }
  await clearAttempts([attemptKeys.user(actor.id, "totp")]);
  if (method === "recovery_code")
    await writeAudit({ actor, action: "auth.totp.recovery_code_used", ip: audit.ip, details: { purpose: audit.purpose } });
  return { outcome: "ok" };
}

/** Turning the second factor off needs a valid code first (checked by the caller); other sessions end. */
export async function disableSecondFactor(actor: Actor, audit: Audit & { sessionId: string | null }): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecretEncrypted: null, totpPendingSecretEncrypted: null, totpEnabledAt: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(users.id, actor.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, actor.id));
  });
  await revokeUserSessions(actor.id, audit.sessionId ?? undefined);
  await writeAudit({ actor, action: "auth.totp.disabled", ip: audit.ip });
}

export async function regenerateRecoveryCodes(actor: Actor, audit: Audit): Promise<string[]> {
  const db = await getDb();
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, actor.id));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: actor.id, codeHash: hashRecoveryCode(c) })));
  });
  await writeAudit({ actor, action: "auth.totp.recovery_codes_regenerated", ip: audit.ip });
  return codes;
}

export async function hasSecondFactor(userId: string): Promise<boolean> {
  const db = await getDb();
  const [user] = await db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId)).limit(1);
  return !!user?.enabledAt;
}

export async function rolesRequiringSecondFactor(): Promise<Role[]> {
  const db = await getDb();
  const [row] = await db
    .select({ roles: securitySettings.totpRequiredRoles })
    .from(securitySettings)
    .where(eq(securitySettings.id, "default"))
    .limit(1);
  return row?.roles ?? [];
}

export async function setRolesRequiringSecondFactor(roles: Role[], actor: Actor, audit: Audit): Promise<void> {
  const db = await getDb();
  const now = new Date();
  await db
    .insert(securitySettings)
    .values({ id: "default", totpRequiredRoles: roles, updatedBy: actor.id, updatedAt: now })
    .onConflictDoUpdate({ target: securitySettings.id, set: { totpRequiredRoles: roles, updatedBy: actor.id, updatedAt: now } });
  await writeAudit({ actor, action: "security.totp_required_roles.change", ip: audit.ip, details: { roles } });
}

export type MoneyOutRefusal = "secondFactorRequired" | "codeRequired" | "wrongCode" | "tooManyAttempts";

/**
 * The second factor's part in confirming money out (transfers, refunds): the app's code for a
 * user who has one; for a role administrators require it of, enrolment first. Null when it may go ahead.
 */
export async function secondFactorForMoneyOut(
  actor: Actor & { role: Role },
  code: string | undefined,
  audit: Audit & { purpose: string },
): Promise<MoneyOutRefusal | null> {
  if (!(await hasSecondFactor(actor.id))) {
    return (await rolesRequiringSecondFactor()).includes(actor.role) ? "secondFactorRequired" : null;
  }
  if (!code) return "codeRequired";
  const check = await checkSecondFactor(actor, code, audit);
  if (check.outcome === "throttled") return "tooManyAttempts";
  return check.outcome === "ok" ? null : "wrongCode";
}
