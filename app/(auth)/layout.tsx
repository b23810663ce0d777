import { getI18n } from "@/lib/i18n/server";
import { LocaleToggle } from "./locale-toggle";

export default async function AuthLayout({ children }: { children: React.ReactNode }) {
  const { t } = await getI18n();
  return (
    <div className="relative flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-12">
      <div className="absolute top-4 right-4">
        <LocaleToggle />
      </div>
      <div className="mb-8 flex items-center gap-2 text-lg font-semibold tracking-tight">
        <span className="inline-flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">R$</span>
        {t("shell.appName")}
      </div>
      <main className="w-full max-w-sm">{children}</main>
    </div>
  );
}
