"use client";

import type { ReactNode } from "react";
import { ShieldAlert } from "lucide-react";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { useT } from "@/lib/i18n/client";

/** A signing secret, in full, this once: the console keeps it encrypted and shows only its last 4 characters afterwards. */
export function SecretOnce({
  secret,
  title,
  description,
  children,
}: {
  secret: string;
  title: string;
  description: string;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <Card className="border-warning/40" data-testid="secret-once">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldAlert className="size-4 text-warning" aria-hidden /> {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-center gap-2">
          <code className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-sm" data-testid="destination-secret">
            {secret}
          </code>
          <CopyButton value={secret} label={t("destinations.copySecret")} showLabel variant="outline" />
        </div>
      </CardContent>
      {children && <CardFooter className="justify-end gap-2">{children}</CardFooter>}
    </Card>
  );
}
