import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "@/lib/env";
import { clientIp } from "@/lib/http/client-ip";
import { writeAudit } from "@/lib/audit/log";
import { findUserForSignIn } from "@/lib/users/queries";
import { decoyPasswordHash, verifyPassword } from "@/lib/crypto/password";
import { SIGN_IN_EMAIL_RULE, SIGN_IN_IP_RULE, attemptKeys, clearAttempts, retryMinutes, takeAttempts } from "@/lib/users/throttle";
import { checkSecondFactor } from "./second-factor";
import { openSession, revokeSession, SESSION_MAX_AGE_S } from "./sessions";
import { authSecret } from "./secret";

/**
 * Error codes the sign-in page turns into messages; none tells whether the e-mail exists.
 * "code_required" is only answered after the right password.
 */
export const SIGN_IN_ERRORS = {
  invalid: "invalid_credentials",
  throttled: "throttled",
  codeRequired: "code_required",
  codeInvalid: "code_invalid",
} as const;

const credentialsSchema = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
  code: z.string().trim().max(32).optional(),
});

export function authOptions(): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    jwt: { maxAge: SESSION_MAX_AGE_S },
    useSecureCookies: env.isProduction,
    pages: { signIn: "/sign-in", error: "/sign-in" },
    // One short line per problem: next-auth's default dumps stacks (a forged cookie is not news).
    logger: {
      error: (code) => console.warn(`[auth] ${code}`),
      warn: (code) => console.warn(`[auth] ${code}`),
      debug: () => {},
    },
    providers: [
      CredentialsProvider({
        name: "credentials",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(raw, req) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) throw new Error(SIGN_IN_ERRORS.invalid);
          const { email, password, code } = parsed.data;
          const ip = clientIp((req?.headers ?? {}) as Record<string, string>);
          const verdict = await takeAttempts([
            [attemptKeys.signInEmail(email), SIGN_IN_EMAIL_RULE],
            ...(ip ? [[attemptKeys.signInIp(ip), SIGN_IN_IP_RULE] as const] : []),
          ]);
          if (!verdict.allowed) {
            await writeAudit({ action: "auth.sign_in.throttled", target: email.trim().toLowerCase(), ip });
            throw new Error(`${SIGN_IN_ERRORS.throttled}:${retryMinutes(verdict)}`);
          }

          const user = await findUserForSignIn(email);
          const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
          if (!user || !ok || !user.active) {
            await writeAudit({ action: "auth.sign_in.failed", target: email.trim().toLowerCase(), ip });
            throw new Error(SIGN_IN_ERRORS.invalid);
          }
          const actor = { id: user.id, email: user.email };
          if (user.totpEnabledAt) {
            if (!code) throw new Error(SIGN_IN_ERRORS.codeRequired);
            const check = await checkSecondFactor(actor, code, { ip, purpose: "sign_in" });
            if (check.outcome === "throttled")
              throw new Error(`${SIGN_IN_ERRORS.throttled}:${retryMinutes({ allowed: false, retryAfterMs: check.retryAfterMs })}`);
            if (check.outcome !== "ok") throw new Error(SIGN_IN_ERRORS.codeInvalid);
          }
          await clearAttempts([attemptKeys.signInEmail(email)]);
          const sessionId = await openSession(user.id, ip);
          await writeAudit({ actor, action: "auth.sign_in", ip, details: { secondFactor: !!user.totpEnabledAt } });
          return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion, sessionId };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 1;
          token.sid = (user as { sessionId?: string }).sessionId;
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub }, sv: token.sv, sid: token.sid } as typeof session;
      },
    },
    events: {
      // Whatever the cookie says afterwards (a copy, a replay), the session row is gone.
      async signOut({ token }) {
        if (typeof token?.sid === "string") await revokeSession(token.sid);
      },
    },
  };
}
