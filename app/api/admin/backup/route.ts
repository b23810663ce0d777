import { writeAudit } from "@/lib/audit/log";
import { authSecret } from "@/lib/auth/secret";
import { AccessDeniedError, authorize } from "@/lib/auth/session";
import { backupPglite } from "@/lib/backup/pglite";
import { verifyBackupToken } from "@/lib/backup/token";
import { embeddedClient } from "@/lib/db/client";
import { createLogger } from "@/lib/log";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * POST /api/admin/backup: a consistent copy of the embedded database (PGlite) as a gzip
 * tarball, taken by this process (the only one that may open that data directory) while it keeps
 * serving. For `npm run backup` (Authorization: Bearer <token from lib/backup/token.ts>) or a
 * signed-in administrator. On Postgres the answer is 409: pg_dump is the tool there.
 */
export async function POST(request: Request) {
  const bearer = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  let actor: { id: string; email: string } | null = null;
  let ip: string | null = null;
  if (bearer) {
    if (!verifyBackupToken(bearer, authSecret())) return Response.json({ error: "unauthorized" }, { status: 401 });
  } else {
    try {
      const ctx = await authorize("users.manage");
      actor = ctx.user;
      ip = ctx.ip;
    } catch (error) {
      if (error instanceof AccessDeniedError)
        return Response.json({ error: error.reason }, { status: error.reason === "unauthenticated" ? 401 : 403 });
      throw error;
    }
  }
  const client = await embeddedClient();
  if (!client) return Response.json({ error: "The console runs on Postgres (DATABASE_URL): back it up with pg_dump." }, { status: 409 });
  const started = Date.now();
  await writeAudit({ actor, action: "database.backup", details: { by: bearer ? "operator token" : "session" }, ip });
  const archive = await backupPglite(client);
  createLogger("backup").info("database backup taken", { bytes: archive.length, ms: Date.now() - started });
  return new Response(new Uint8Array(archive), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="console-${new Date().toISOString().slice(0, 10)}.tar.gz"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
