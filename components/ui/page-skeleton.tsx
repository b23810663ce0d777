import { Skeleton } from "@/components/ui/skeleton";
import { Card, CardContent, CardHeader } from "@/components/ui/card";

/**
 * What a page shows while its data loads (its `loading.tsx`, or a Suspense fallback): the shape of
 * the page to come, so nothing jumps when it arrives. `label` is read by screen readers.
 */
export function PageSkeleton({
  label,
  shape = "table",
  header = true,
}: {
  label: string;
  /** A list (filters and rows), figure cards above a chart, or a detail page (summary beside a side card). */
  shape?: "table" | "figures" | "detail";
  header?: boolean;
}) {
  return (
    <div className="space-y-6" role="status" aria-busy="true" aria-live="polite" data-testid="page-skeleton">
      <span className="sr-only">{label}</span>
      {header && (
        <div className="space-y-2">
          <Skeleton className="h-8 w-56 max-w-full" />
          <Skeleton className="h-4 w-96 max-w-full" />
        </div>
      )}
      {shape === "figures" && <FiguresSkeleton />}
      {shape === "table" && <TableSkeleton />}
      {shape === "detail" && <DetailSkeleton />}
    </div>
  );
}

export function FiguresSkeleton() {
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-3">
        {[0, 1, 2].map((key) => (
          <Card key={key} className="gap-3">
            <CardHeader className="space-y-2">
              <Skeleton className="h-4 w-24" />
              <Skeleton className="h-7 w-36" />
              <Skeleton className="h-3 w-28" />
            </CardHeader>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <Skeleton className="h-5 w-48" />
        </CardHeader>
        <CardContent>
          <Skeleton className="h-56 w-full" />
        </CardContent>
      </Card>
    </div>
  );
}

function TableSkeleton() {
  return (
    <Card className="gap-0 py-0">
      {Array.from({ length: 8 }, (_, index) => (
        <div key={index} className="flex items-center gap-4 border-b px-4 py-3 last:border-b-0">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-5 w-20 rounded-full" />
          <Skeleton className="h-4 w-20" />
        </div>
      ))}
    </Card>
  );
}

function DetailSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <CardHeader>
          <Skeleton className="h-5 w-40" />
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {Array.from({ length: 8 }, (_, index) => (
            <div key={index} className="space-y-1.5">
              <Skeleton className="h-3 w-20" />
              <Skeleton className="h-4 w-40 max-w-full" />
            </div>
          ))}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <Skeleton className="h-5 w-32" />
        </CardHeader>
        <CardContent className="space-y-3">
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-4 w-2/3" />
        </CardContent>
      </Card>
    </div>
  );
}
