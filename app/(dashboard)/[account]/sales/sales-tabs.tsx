import Link from "next/link";
import { accountPath } from "@/lib/accounts/paths";
import { getI18n } from "@/lib/i18n/server";
import { cn } from "@/lib/utils";

export type SalesSection = "overview" | "origin" | "recovery";

const SECTIONS: { section: SalesSection; path: string }[] = [
  { section: "overview", path: "/sales" },
  { section: "origin", path: "/sales/origin" },
  { section: "recovery", path: "/sales/recovery" },
];

/** The sales area's sections as links (each is its own page and address); `query` keeps the period across them. */
export async function SalesTabs({ accountId, current, query = "" }: { accountId: string; current: SalesSection; query?: string }) {
  const { t } = await getI18n();
  const label = (section: SalesSection) => (section === "recovery" ? t("salesRecovery.tab") : t(`sales.tabs.${section}`));
  return (
    <nav
      aria-label={t("sales.sections")}
      className="inline-flex h-9 w-fit max-w-full items-center overflow-x-auto rounded-lg bg-muted p-[3px]"
    >
      {SECTIONS.map(({ section, path }) => (
        <Link
          key={section}
          href={`${accountPath(accountId, path)}${section === "recovery" ? "" : query}`}
          aria-current={section === current ? "page" : undefined}
          className={cn(
            "inline-flex h-full items-center rounded-md px-3 text-sm font-medium whitespace-nowrap text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
            section === current && "bg-background text-foreground shadow-sm",
          )}
        >
          {label(section)}
        </Link>
      ))}
    </nav>
  );
}
