import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { gatewayAccounts, memberships, users, type Role } from "@/lib/db/schema";
import { writeAudit } from "@/lib/audit/log";
import { hashPassword, verifyPassword } from "@/lib/crypto/password";
import { IN_SESSION_RULE, attemptKeys, clearAttempts, takeAttempt } from "./throttle";
import type { Locale } from "@/lib/locale";

export type Actor = { id: string; email: string };

export type UserDto = {
  id: string;
  email: string;
  name: string;
  role: Role;
  locale: Locale;
  active: boolean;
  createdAt: string;
  accounts: { id: string; name: string; role: Role }[];
};

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserForSignIn(email: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)))
    .limit(1);
  return row ?? null;
}

export async function findUserById(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function countUsers(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

export async function listUsers(): Promise<UserDto[]> {
  const db = await getDb();
  const rows = await db.select().from(users).orderBy(asc(users.email));
  const links = await db
    .select({ userId: memberships.userId, id: gatewayAccounts.id, name: gatewayAccounts.name, role: memberships.role })
    .from(memberships)
    .innerJoin(gatewayAccounts, eq(gatewayAccounts.id, memberships.accountId))
    .orderBy(asc(gatewayAccounts.name));
  return rows.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    locale: u.locale as Locale,
    active: u.active,
    createdAt: u.createdAt.toISOString(),
    accounts: links.filter((l) => l.userId === u.id).map(({ id, name, role }) => ({ id, name, role })),
  }));
}

export class EmailTakenError extends Error {
  constructor() {
    super("email_taken");
  }
}

export async function createUser(
  input: { email: string; name: string; password: string; role: Role; accountIds: string[]; locale?: Locale },
  actor: Actor | null,
): Promise<string> {
  const db = await getDb();
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (existing) throw new EmailTakenError();
    const [created] = await tx
      .insert(users)
      .values({ email, name: input.name.trim(), passwordHash, role: input.role, locale: input.locale ?? "pt-BR" })
      .returning({ id: users.id });
    if (input.accountIds.length > 0) {
      await tx.insert(memberships).values(input.accountIds.map((accountId) => ({ userId: created.id, accountId, role: input.role })));
    }
    await writeAudit({ actor, action: "user.create", target: email, details: { role: input.role, accounts: input.accountIds } }, tx);
    return created.id;
  });
}

/** Demoting or deactivating the only active administrator would lock everyone out of administration. */
export class LastAdminError extends Error {}

/** Inside the transaction that changes `userId`: refuses when it is the last active admin (rows locked, so two demotions cannot race). */
async function assertNotLastAdmin(tx: Tx, userId: string): Promise<void> {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.active, true)))
    .for("update");
  if (admins.some((a) => a.id === userId) && admins.length <= 1) throw new LastAdminError();
}

export async function setUserActive(userId: string, active: boolean, actor: Actor): Promise<void> {
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    if (!active) await assertNotLastAdmin(tx, userId);
    const [updated] = await tx
      .update(users)
      .set({ active, updatedAt: new Date(), sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, userId))
      .returning({ email: users.email });
    return updated;
  });
  if (row) await writeAudit({ actor, action: active ? "user.reactivate" : "user.deactivate", target: row.email });
}

/** The role applies to the user and to every account the user is a member of. */
export async function setUserRole(userId: string, role: Role, actor: Actor): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    if (role !== "admin") await assertNotLastAdmin(tx, userId);
    const [row] = await tx
      .update(users)
      .set({ role, updatedAt: new Date(), sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, userId))
      .returning({ email: users.email });
    if (!row) return;
    await tx.update(memberships).set({ role }).where(eq(memberships.userId, userId));
    await writeAudit({ actor, action: "user.role.change", target: row.email, details: { role } }, tx);
  });
}

export async function setUserAccounts(userId: string, accountIds: string[], actor: Actor): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) return;
    await tx.delete(memberships).where(eq(memberships.userId, userId));
    if (accountIds.length > 0) {
      await tx.insert(memberships).values(accountIds.map((accountId) => ({ userId, accountId, role: user.role })));
    }
    await writeAudit({ actor, action: "user.accounts.change", target: user.email, details: { accounts: accountIds } }, tx);
  });
}

/** The signed-in user's own password, checked under the same attempt limit as every password check. */
export async function checkOwnPassword(userId: string, password: string): Promise<"ok" | "wrong_password" | "throttled"> {
  const key = attemptKeys.user(userId, "password");
  if (!(await takeAttempt(key, IN_SESSION_RULE)).allowed) return "throttled";
  const user = await findUserById(userId);
  if (!user || !(await verifyPassword(user.passwordHash, password))) return "wrong_password";
  await clearAttempts([key]);
  return "ok";
}

export async function changePassword(
  userId: string,
  currentPassword: string,
  newPassword: string,
): Promise<"ok" | "wrong_password" | "throttled"> {
  const db = await getDb();
  const checked = await checkOwnPassword(userId, currentPassword);
  if (checked !== "ok") return checked;
  const [user] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(newPassword), updatedAt: new Date(), sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ id: users.id, email: users.email });
  if (user) await writeAudit({ actor: { id: user.id, email: user.email }, action: "user.password.change", target: user.email });
  return "ok";
}

export async function setUserLocale(userId: string, locale: Locale): Promise<void> {
  const db = await getDb();
  await db.update(users).set({ locale, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function membershipsOf(userId: string) {
  const db = await getDb();
  return db
    .select({ accountId: memberships.accountId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId)));
}

export async function accountMembers(accountId: string) {
  const db = await getDb();
  return db
    .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(users.email));
}
