import "server-only";
import type { ReactNode } from "react";
import { I18nProvider } from "./client";
import type { AreaName } from "./areas";
import { getLocale, messagesFor } from "./server";

/** A route's own message areas, added to the shared ones the root layout sends. */
export async function RouteMessages({ areas, children }: { areas: readonly AreaName[]; children: ReactNode }) {
  const locale = await getLocale();
  return (
    <I18nProvider locale={locale} messages={messagesFor(locale, areas)}>
      {children}
    </I18nProvider>
  );
}
