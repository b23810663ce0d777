"use client";

import { useState, useTransition, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { DatePicker, isWholeDayOrEmpty } from "@/components/ui/date-picker";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { useT } from "@/lib/i18n/client";

const ANY = "__any__";
const KEYS = ["email", "account", "action", "from", "to"] as const;
type Values = Partial<Record<(typeof KEYS)[number], string>>;

export function AuditFilters({ initial, accounts }: { initial: Values; accounts: { id: string; name: string }[] }) {
  const t = useT();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [values, setValues] = useState<Values>(initial);
  const set = (key: keyof Values, value: string) => setValues((current) => ({ ...current, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const key of KEYS) if (values[key]?.trim()) params.set(key, values[key]!.trim());
    startTransition(() => router.push(`/admin/audit${params.size ? `?${params}` : ""}`));
  }

  return (
    <Card className="py-4">
      <CardContent className="px-4">
        <form onSubmit={submit} role="search" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          <div className="space-y-1.5">
            <Label htmlFor="audit-email">{t("audit.filters.email")}</Label>
            <Input id="audit-email" value={values.email ?? ""} onChange={(e) => set("email", e.target.value)} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="audit-account">{t("audit.filters.account")}</Label>
            <Select
              id="audit-account"
              className="w-full"
              value={values.account || ANY}
              onValueChange={(v) => set("account", v === ANY ? "" : v)}
              options={[
                { value: ANY, label: t("audit.filters.anyAccount") },
                ...accounts.map((account) => ({ value: account.id, label: account.name })),
              ]}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="audit-action">{t("audit.filters.action")}</Label>
            <Input
              id="audit-action"
              value={values.action ?? ""}
              placeholder={t("audit.filters.actionPlaceholder")}
              onChange={(e) => set("action", e.target.value)}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="audit-from">{t("audit.filters.from")}</Label>
            <DatePicker id="audit-from" value={values.from ?? ""} onChange={(v) => isWholeDayOrEmpty(v) && set("from", v)} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="audit-to">{t("audit.filters.to")}</Label>
            <DatePicker id="audit-to" value={values.to ?? ""} onChange={(v) => isWholeDayOrEmpty(v) && set("to", v)} />
          </div>
          <div className="flex justify-end gap-2 sm:col-span-2 lg:col-span-5">
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                setValues({});
                startTransition(() => router.push("/admin/audit"));
              }}
            >
              {t("audit.filters.clear")}
            </Button>
            <Button type="submit" size="sm" loading={pending}>
              {t("audit.filters.apply")}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
