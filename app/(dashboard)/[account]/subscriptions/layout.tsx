import { RouteMessages } from "@/lib/i18n/route-messages";

export default function Layout({ children }: { children: React.ReactNode }) {
  return <RouteMessages areas={["subscriptions"]}>{children}</RouteMessages>;
}
