import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The operator's credential for `POST /api/admin/backup` from `npm run backup`: an HMAC of the
 * time under the session secret (NEXTAUTH_SECRET, or DATA_DIR/auth.secret on a local run),
 * valid for a minute. Whoever holds that secret can already sign an administrator's session, so
 * this grants nothing new, and no password or second factor has to be typed into a script.
 */
const LABEL = "merchant-console backup v1";
export const BACKUP_TOKEN_TTL_SECONDS = 60;

function mac(secret: string, seconds: number): string {
  return createHmac("sha256", secret).update(`${LABEL}:${seconds}`).digest("base64url");
}

export function backupToken(secret: string, now = Date.now()): string {
  const seconds = Math.floor(now / 1000);
  return `${seconds}.${mac(secret, seconds)}`;
}

export function verifyBackupToken(token: string, secret: string, now = Date.now()): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const seconds = Number(match[1]);
  if (Math.abs(now / 1000 - seconds) > BACKUP_TOKEN_TTL_SECONDS) return false;
  const given = Buffer.from(match[2]);
  const expected = Buffer.from(mac(secret, seconds));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
