import { cn } from "@/lib/utils";

export function AccountMark({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-7 shrink-0 items-center justify-center rounded-md border bg-background text-xs font-semibold text-foreground uppercase shadow-xs",
        className,
      )}
    >
      {name.trim().charAt(0) || "?"}
    </span>
  );
}
