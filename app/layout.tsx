import type { Metadata } from "next";
import "@fontsource-variable/inter";
import "./globals.css";
import { headers } from "next/headers";
import { getLocale, messagesFor } from "@/lib/i18n/server";
import { SHARED_AREAS } from "@/lib/i18n/areas";
import { Providers } from "./providers";

// Every page depends on the session and the user's language.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Console de pagamentos", template: "%s · Console de pagamentos" },
  description: "Console para produtores e operações: Pix, cartão, boleto, cripto, transferências e webhooks.",
  robots: { index: false, follow: false },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  // Set by proxy.ts for this request's Content-Security-Policy.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang={locale} suppressHydrationWarning>
      <body className="min-h-dvh bg-background font-sans text-foreground antialiased">
        <Providers locale={locale} messages={messagesFor(locale, SHARED_AREAS)} nonce={nonce}>
          {children}
        </Providers>
      </body>
    </html>
  );
}
