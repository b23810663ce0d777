import { cn } from "@/lib/utils";

/** A determinate bar with its name for screen readers; `tone` colours the filled part. */
export function ProgressBar({
  value,
  max,
  label,
  valueText,
  tone = "primary",
  className,
}: {
  value: number;
  max: number;
  label: string;
  valueText?: string;
  tone?: "primary" | "success" | "warning";
  className?: string;
}) {
  const percent = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-muted", className)}
    >
      <div
        className={cn(
          "h-full rounded-full transition-[width] duration-500",
          tone === "success" ? "bg-success" : tone === "warning" ? "bg-warning" : "bg-primary",
        )}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
