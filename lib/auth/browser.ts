// next-auth's own endpoints, called the way `next-auth/react` calls them, without shipping that
// client (and its Babel runtime) to every page: the console only signs in with credentials and out.

const BASE = "/api/auth";

async function csrfToken(): Promise<string> {
  const response = await fetch(`${BASE}/csrf`, { cache: "no-store" });
  const { csrfToken: token } = (await response.json()) as { csrfToken: string };
  return token;
}

async function postForm(path: string, fields: Record<string, string>): Promise<{ response: Response; url: string | null }> {
  const body = new URLSearchParams({ ...fields, csrfToken: await csrfToken(), json: "true" });
  const response = await fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  const data = (await response.json().catch(() => ({}))) as { url?: string };
  return { response, url: data.url ?? null };
}

/** Credentials sign-in without a redirect: `error` is the code the authorize step refused with, if any. */
export async function signInWithCredentials(fields: Record<string, string>): Promise<{ ok: boolean; error: string | null }> {
  const { response, url } = await postForm("/callback/credentials", { ...fields, callbackUrl: window.location.href });
  const error = url ? new URL(url, window.location.href).searchParams.get("error") : "unknown";
  return { ok: response.ok && !error, error };
}

/** Ends the session and leaves for `callbackUrl` with a full navigation, as next-auth's signOut does. */
export async function signOutTo(callbackUrl: string): Promise<void> {
  const { url } = await postForm("/signout", { callbackUrl });
  const target = url ?? callbackUrl;
  window.location.href = target;
  if (target.includes("#")) window.location.reload();
}
