import Link from "next/link";
import { ShieldX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { getI18n } from "@/lib/i18n/server";

export default async function ForbiddenPage() {
  const { t } = await getI18n();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <ShieldX className="size-10 text-destructive" aria-hidden />
      <h1 className="text-2xl font-semibold tracking-tight">{t("auth.forbiddenTitle")}</h1>
      <p className="max-w-md text-muted-foreground">{t("auth.forbiddenDescription")}</p>
      <Button asChild>
        <Link href="/">{t("auth.backHome")}</Link>
      </Button>
    </main>
  );
}
