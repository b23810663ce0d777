import * as React from "react";
import Link from "next/link";
import { cn } from "@/lib/utils";

export type PageHeaderProps = Omit<React.ComponentProps<"div">, "title"> & {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Right-aligned buttons (wrap below the title on small screens). */
  actions?: React.ReactNode;
  /** Small line above the title, e.g. a back link or breadcrumb. */
  eyebrow?: React.ReactNode;
  /** The page one level up, shown as the eyebrow link. */
  back?: { href: string; label: React.ReactNode };
};

export function PageHeader({ title, description, actions, eyebrow, back, className, children, ...props }: PageHeaderProps) {
  eyebrow ??= back ? (
    <Link href={back.href} className="hover:underline">
      {back.label}
    </Link>
  ) : null;
  return (
    <div
      data-slot="page-header"
      className={cn("flex flex-col gap-4 pb-6 sm:flex-row sm:items-end sm:justify-between", className)}
      {...props}
    >
      <div className="flex min-w-0 flex-col gap-1">
        {eyebrow ? <div className="text-sm text-muted-foreground">{eyebrow}</div> : null}
        <h1 className="text-2xl leading-tight font-semibold tracking-tight text-balance">{title}</h1>
        {description ? <p className="max-w-2xl text-sm text-muted-foreground">{description}</p> : null}
        {children}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
