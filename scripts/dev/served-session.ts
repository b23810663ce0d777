/**
 * A signed-in session and the live feed as a browser gets them, for the scripts that drive the
 * served console (`npm run chaos`, `npm run bench:webhooks`).
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/** Signs in through next-auth's credentials endpoint, as the sign-in form does; returns the cookies. */
export async function signIn(base: string, email: string, password: string): Promise<Map<string, string>> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const csrf = await fetch(`${base}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const answer = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(jar) },
    body: new URLSearchParams({ email, password, csrfToken, json: "true", callbackUrl: base }),
  });
  keep(answer);
  if (![...jar.keys()].some((name) => name.endsWith("session-token"))) throw new Error(`sign-in failed (${answer.status})`);
  return jar;
}

/** `GET /api/feed/stream` signed in; calls `onEvent` with each feed event's id (and whether it is applied). */
export async function openFeedStream(base: string, cookie: string, onEvent: (id: string, applied: boolean) => void): Promise<() => void> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/feed/stream`, { headers: { cookie, accept: "text/event-stream" }, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`feed stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (message.includes("event: ready")) ready();
          const data = message.split("\n").find((line) => line.startsWith("data: "));
          if (!message.includes("event: feed") || !data) continue;
          const event = JSON.parse(data.slice(6)) as { id?: string; applied?: boolean };
          if (event.id) onEvent(event.id, Boolean(event.applied));
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  await Promise.race([isReady, sleep(15_000).then(() => Promise.reject(new Error("feed stream: no ready event within 15 s")))]);
  return () => controller.abort();
}
