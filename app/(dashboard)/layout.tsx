import { AppShell } from "@/components/shell/app-shell";
import { requirePage } from "@/lib/auth/session";
import { navFor } from "@/lib/shell/nav";
import { setLocaleAction } from "@/lib/shell/actions";
import { signOutAuditAction, switchAccountAction } from "./actions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await requirePage();
  return (
    <AppShell
      nav={navFor(ctx)}
      user={{ name: ctx.user.name, email: ctx.user.email, role: ctx.user.role }}
      accounts={ctx.accounts.map(({ id, name, mode }) => ({ id, name, mode }))}
      currentAccountId={ctx.account?.id ?? null}
      actions={{ switchAccount: switchAccountAction, setLocale: setLocaleAction, beforeSignOut: signOutAuditAction }}
    >
      {children}
    </AppShell>
  );
}
