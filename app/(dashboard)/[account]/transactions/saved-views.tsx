"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { toast } from "@/components/ui/toast";
import { Bookmark, BookmarkPlus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DeferredPopover } from "@/components/ui/deferred-popover";
import { TextField } from "@/components/forms/fields";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { useT } from "@/lib/i18n/client";
import type { LedgerFilterParams } from "@/lib/ledger/filter-keys";
import { deleteViewAction, saveViewAction } from "./actions";
import { accountPath } from "@/lib/accounts/paths";

type View = { id: string; name: string; filters: LedgerFilterParams };

const hrefOf = (accountId: string, filters: LedgerFilterParams) => {
  const params = new URLSearchParams(filters as Record<string, string>);
  return `${accountPath(accountId, "/transactions")}${params.size ? `?${params}` : ""}`;
};

export function SavedViews({ accountId, views, current }: { accountId: string; views: View[]; current: LedgerFilterParams }) {
  const t = useT();
  const router = useRouter();
  const { form, dialog } = useFormDialog({
    schema: () => import("@/lib/ledger/view-schemas").then((m) => m.viewNameSchema),
    defaultValues: { name: "" },
    action: ({ name }) => saveViewAction({ accountId, name, filters: current }),
    successMessage: (_view, { name }) => t("transactions.views.saved", { name: name.trim() }),
    onSuccess: () => router.refresh(),
  });

  async function onDelete(id: string) {
    const result = await deleteViewAction({ accountId, id });
    if (result.ok) {
      toast.success(t("transactions.views.deleted"));
      router.refresh();
    } else toast.error(t(result.error));
  }

  return (
    <>
      <DeferredPopover
        align="end"
        className="w-72 p-2"
        trigger={
          <Button variant="outline" size="sm">
            <Bookmark aria-hidden />
            {t("transactions.views.title")}
            {views.length > 0 && <span className="text-muted-foreground tabular-nums">({views.length})</span>}
          </Button>
        }
      >
        {views.length === 0 ? (
          <p className="px-2 py-3 text-sm text-muted-foreground">{t("transactions.views.none")}</p>
        ) : (
          <ul className="space-y-0.5" aria-label={t("transactions.views.title")}>
            {views.map((view) => (
              <li key={view.id} className="flex items-center gap-1">
                <Link
                  href={hrefOf(accountId, view.filters)}
                  className="min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
                >
                  {view.name}
                </Link>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={t("transactions.views.delete", { name: view.name })}
                  onClick={() => onDelete(view.id)}
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </DeferredPopover>
      <FormDialog
        {...dialog}
        trigger={
          <Button variant="outline" size="sm">
            <BookmarkPlus aria-hidden />
            {t("transactions.views.save")}
          </Button>
        }
        title={t("transactions.views.saveTitle")}
        description={t("transactions.views.saveDescription")}
      >
        <TextField control={form.control} name="name" label={t("transactions.views.name")} autoComplete="off" />
      </FormDialog>
    </>
  );
}
