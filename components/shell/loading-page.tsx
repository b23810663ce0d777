import { PageSkeleton } from "@/components/ui/page-skeleton";
import { getI18n } from "@/lib/i18n/server";

/** A route's `loading.tsx`: shown at once on navigation while the page's data loads (streamed). */
export async function LoadingPage({ shape }: { shape: "table" | "figures" | "detail" }) {
  const { t } = await getI18n();
  return <PageSkeleton label={t("ui.loading")} shape={shape} />;
}
