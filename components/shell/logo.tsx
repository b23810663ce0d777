import { cn } from "@/lib/utils";

/** Brand mark + wordmark. `wordmark` is passed in already translated so this stays a server-safe component. */
export function Logo({ wordmark, className }: { wordmark: string; className?: string }) {
  return (
    <span className={cn("flex items-center gap-2 text-[15px] font-semibold tracking-tight", className)}>
      <span
        aria-hidden="true"
        className="inline-flex size-7 items-center justify-center rounded-lg bg-primary text-[11px] font-bold text-primary-foreground shadow-xs ring-1 ring-black/5 ring-inset"
      >
        R$
      </span>
      <span>{wordmark}</span>
    </span>
  );
}
