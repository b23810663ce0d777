import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { totpCodeAt, totpStep } from "@/lib/auth/totp";
import { decryptSecret } from "@/lib/crypto/secrets";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

export const PEOPLE_PASSWORD = "correct-horse-battery";

/**
 * The two people of a batch payout on one account: an analyst who prepares (operator) and a
 * producer who approves, enrolled in the second factor. `freshCode` gives the checker a code the
 * replay guard accepts (tests and benchmarks approve more often than once per 30 s step).
 */
export async function makerAndChecker(accountId: string) {
  const { createUser } = await import("@/lib/users/queries");
  const { startEnrolment, confirmEnrolment } = await import("@/lib/auth/second-factor");
  const tag = randomBytes(3).toString("hex");
  const makerEmail = `maker-${tag}@example.com`;
  const checkerEmail = `checker-${tag}@example.com`;
  const maker = {
    id: await createUser(
      { email: makerEmail, name: "Analista", password: PEOPLE_PASSWORD, role: "operator", accountIds: [accountId] },
      null,
    ),
    email: makerEmail,
    role: "operator" as const,
  };
  const checker = {
    id: await createUser(
      { email: checkerEmail, name: "Produtora", password: PEOPLE_PASSWORD, role: "producer", accountIds: [accountId] },
      null,
    ),
    email: checkerEmail,
    role: "producer" as const,
  };
  let key: Uint8Array | null = null;
  const db = await getDb();
  return {
    maker,
    checker,
    /** Turns the checker's second factor on (approval refuses without it). */
    async enrolChecker() {
      await startEnrolment(checker);
      const [row] = await db.select().from(users).where(eq(users.id, checker.id));
      key = new Uint8Array(Buffer.from(decryptSecret(row.totpPendingSecretEncrypted!), "base64"));
      const now = new Date();
      const result = await confirmEnrolment(checker, totpCodeAt(key, totpStep(now)), { ip: null, sessionId: null }, now);
      if (result.outcome !== "ok") throw new Error(`enrolment failed: ${result.outcome}`);
    },
    async freshCode(): Promise<string> {
      if (!key) throw new Error("the checker is not enrolled");
      await db.update(users).set({ totpLastStep: null }).where(eq(users.id, checker.id));
      return totpCodeAt(key, totpStep(new Date()));
    },
  };
}
