import { Building2 } from "lucide-react";
import { ModeBadge } from "@/components/shell/mode-badge";
import { getI18n } from "@/lib/i18n/server";
import type { AccessibleAccount } from "@/lib/auth/session";

/** Names the account (and its mode) an operation will go to, on the form itself. */
export async function AccountBanner({ account }: { account: Pick<AccessibleAccount, "id" | "name" | "mode"> }) {
  const { t } = await getI18n();
  return (
    <div
      className="bg-muted/40 flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 text-sm"
      data-testid="account-banner"
      data-account-id={account.id}
    >
      <Building2 className="text-muted-foreground size-4" aria-hidden />
      <span className="text-muted-foreground">{t("accounts.operationAccount")}</span>
      <span className="font-medium">{account.name}</span>
      <ModeBadge mode={account.mode} />
    </div>
  );
}
