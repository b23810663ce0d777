import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "@/lib/env";
import { clientIp } from "@/lib/http/client-ip";
import { writeAudit } from "@/lib/audit/log";
import { findUserForSignIn } from "@/lib/users/dal";
import { decoyPasswordHash, verifyPassword } from "./password";
import { isThrottled, recordFailure } from "./throttle";
import { authSecret } from "./secret";

/** Error codes the sign-in page turns into messages; neither tells whether the e-mail exists. */
export const SIGN_IN_ERRORS = { invalid: "invalid_credentials", throttled: "throttled" } as const;

const credentialsSchema = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) });

const SESSION_MAX_AGE_S = 8 * 60 * 60;

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
          const { email, password } = parsed.data;
          const ip = clientIp((req?.headers ?? {}) as Record<string, string>);
          if (await isThrottled(email, ip)) throw new Error(SIGN_IN_ERRORS.throttled);

          const user = await findUserForSignIn(email);
          const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
          if (!user || !ok || !user.active) {
            await recordFailure(email, ip);
            await writeAudit({ action: "auth.sign_in.failed", target: email.trim().toLowerCase(), ip });
            throw new Error(SIGN_IN_ERRORS.invalid);
          }
          await writeAudit({ actor: { id: user.id, email: user.email }, action: "auth.sign_in", ip });
          return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 1;
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub }, sv: token.sv } as typeof session;
      },
    },
  };
}
