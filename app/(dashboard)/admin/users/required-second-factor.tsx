"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { roleCan } from "@/lib/auth/permissions";
import { ROLES, type Role } from "@/lib/db/schema-enums";
import { useT } from "@/lib/i18n/client";
import { setRequiredSecondFactorRolesAction } from "./actions";

/** Only roles that can send money out (transfers, refunds); for the others the rule would mean nothing. */
const MONEY_ROLES: Role[] = ROLES.filter((role) => roleCan(role, "transfers.create") || roleCan(role, "refunds.request"));

export function RequiredSecondFactor({ roles }: { roles: Role[] }) {
  const t = useT();
  const [chosen, setChosen] = useState<Role[]>(roles);
  const [saving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    const result = await setRequiredSecondFactorRolesAction({ roles: chosen });
    setSaving(false);
    if (result.ok) toast.success(t("users.requiredSaved"));
    else toast.error(t(result.error));
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("users.requiredTitle")}</CardTitle>
        <CardDescription>{t("users.requiredDescription")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-6">
        {MONEY_ROLES.map((role) => (
          <div key={role} className="flex items-center gap-2">
            <Checkbox
              id={`required-${role}`}
              checked={chosen.includes(role)}
              onCheckedChange={(checked) => setChosen((current) => (checked ? [...current, role] : current.filter((r) => r !== role)))}
            />
            <Label htmlFor={`required-${role}`}>{t(`users.roles.${role}`)}</Label>
          </div>
        ))}
      </CardContent>
      <CardFooter>
        <Button variant="outline" onClick={save} loading={saving}>
          {t("users.requiredSave")}
        </Button>
      </CardFooter>
    </Card>
  );
}
