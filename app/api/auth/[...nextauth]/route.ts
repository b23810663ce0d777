import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { hasControlCharacters } from "@/lib/http/input";

function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(request, context);
}

/** Sign-in forms never carry NUL or control characters: refused before any query sees them. */
async function post(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  const text = await request.clone().text();
  let decoded = text;
  try {
    decoded = decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return Response.json({ error: "invalid_input", message: "The form is not validly encoded." }, { status: 400 });
  }
  if (text.length > 64_000 || hasControlCharacters(decoded)) {
    return Response.json({ error: "invalid_input", message: "The form contains invalid characters." }, { status: 400 });
  }
  return handler(request, context);
}

export { handler as GET, post as POST };
