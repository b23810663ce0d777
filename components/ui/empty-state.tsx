import * as React from "react";
import { cn } from "@/lib/utils";

export type EmptyStateProps = Omit<React.ComponentProps<"div">, "title"> & {
  /** An icon element, e.g. `<Inbox />` (sized by the component). */
  icon?: React.ReactNode;
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Buttons or links, e.g. "Nova cobrança". */
  action?: React.ReactNode;
  /** `compact` for use inside cards and menus. */
  size?: "default" | "compact";
};

export function EmptyState({ icon, title, description, action, size = "default", className, children, ...props }: EmptyStateProps) {
  const compact = size === "compact";
  return (
    <div
      data-slot="empty-state"
      className={cn(
        "flex flex-col items-center justify-center text-center",
        compact ? "gap-2 px-4 py-6" : "gap-3 rounded-xl border border-dashed px-6 py-12",
        className,
      )}
      {...props}
    >
      {icon ? (
        <div
          aria-hidden="true"
          className={cn(
            "flex items-center justify-center rounded-lg border bg-muted/60 text-muted-foreground shadow-xs [&_svg]:shrink-0",
            compact ? "size-8 [&_svg]:size-4" : "size-11 [&_svg]:size-5",
          )}
        >
          {icon}
        </div>
      ) : null}
      <div className="flex max-w-sm flex-col gap-1">
        <p className={cn("font-medium text-foreground", compact ? "text-sm" : "text-base")}>{title}</p>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {action ? <div className="mt-1 flex flex-wrap items-center justify-center gap-2">{action}</div> : null}
      {children}
    </div>
  );
}
