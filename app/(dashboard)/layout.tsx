import { AppShell } from "@/components/shell/app-shell";
import { requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";
import { navFor } from "@/lib/shell/nav";
import { setLocaleAction } from "@/lib/shell/actions";
import { signOutAuditAction, switchAccountAction } from "./actions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await requirePage();
  const { t } = await getI18n();
  return (
    <AppShell
      nav={navFor(ctx, t)}
      user={{ name: ctx.user.name, email: ctx.user.email, role: ctx.user.role }}
      accounts={ctx.accounts.map(({ id, name, mode }) => ({ id, name, mode }))}
      currentAccountId={ctx.account?.id ?? null}
      actions={{ switchAccount: switchAccountAction, setLocale: setLocaleAction, beforeSignOut: signOutAuditAction }}
    >
      {children}
    </AppShell>
  );
}
