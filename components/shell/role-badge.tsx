"use client";

import { Badge, type BadgeProps } from "@/components/ui/badge";
import { useI18n } from "@/lib/i18n/client";
import type { Role } from "@/lib/db/schema-enums";

const ROLE_VARIANT: Record<Role, NonNullable<BadgeProps["variant"]>> = {
  admin: "solid",
  operator: "info",
  producer: "default",
  viewer: "secondary",
};

/** Known roles get a colour and a translated label; an unexpected value is still shown, never hidden. */
export function RoleBadge({ role, className }: { role: Role | (string & {}); className?: string }) {
  const { has, t } = useI18n();
  const key = `shell.role.${role}`;
  const known = role in ROLE_VARIANT;
  return (
    <Badge variant={known ? ROLE_VARIANT[role as Role] : "outline"} className={className} data-role={role}>
      {has(key) ? t(key) : role}
    </Badge>
  );
}
