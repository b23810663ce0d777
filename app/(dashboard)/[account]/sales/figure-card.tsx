import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

export type FigureTrend = { text: string; direction: "up" | "down" | "flat"; good?: boolean };

/** One figure of the overview: its value, what it counts (always visible), and how it compares with the previous period. */
export function FigureCard({
  testId,
  title,
  value,
  hint,
  previous,
  trend,
}: {
  testId: string;
  title: string;
  value: string;
  hint: string;
  /** The previous period's value, on reports that compare. */
  previous?: string;
  trend?: FigureTrend | null;
}) {
  return (
    <Card data-testid={testId} className="gap-2 py-3 sm:py-4">
      <CardHeader className="px-3 sm:px-4">
        <CardDescription>{title}</CardDescription>
        <CardTitle className="text-xl tabular-nums sm:text-2xl" data-testid={`${testId}-value`}>
          {value}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-1.5 px-3 text-xs sm:px-4">
        {trend && (
          <p
            className={cn(
              "font-medium",
              trend.direction === "flat"
                ? "text-muted-foreground"
                : trend.good
                  ? "text-emerald-700 dark:text-emerald-400"
                  : "text-rose-700 dark:text-rose-400",
            )}
          >
            {trend.direction === "up" ? "▲ " : trend.direction === "down" ? "▼ " : ""}
            {trend.text}
          </p>
        )}
        {previous && <p className="text-muted-foreground">{previous}</p>}
        <p className="text-muted-foreground">{hint}</p>
      </CardContent>
    </Card>
  );
}
