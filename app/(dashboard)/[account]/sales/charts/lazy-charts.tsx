"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState, type ComponentProps } from "react";
import { Skeleton } from "@/components/ui/skeleton";

// The charting library is no part of a page's first load: it is fetched when a chart comes near the
// screen. The tables beside each chart carry the same numbers meanwhile.
const loading = () => <Skeleton className="h-full w-full" />;
const DailyRevenueChart = dynamic(() => import("./revenue-charts").then((m) => m.DailyRevenueChart), { ssr: false, loading });
const OriginRevenueChart = dynamic(() => import("./revenue-charts").then((m) => m.OriginRevenueChart), { ssr: false, loading });

function useNearScreen<T extends Element>() {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: "0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near] as const;
}

export function LazyDailyRevenueChart(props: ComponentProps<typeof DailyRevenueChart>) {
  const [ref, near] = useNearScreen<HTMLDivElement>();
  return (
    <div ref={ref} className="h-full w-full">
      {near ? <DailyRevenueChart {...props} /> : loading()}
    </div>
  );
}

export function LazyOriginRevenueChart(props: ComponentProps<typeof OriginRevenueChart>) {
  const [ref, near] = useNearScreen<HTMLDivElement>();
  return (
    <div ref={ref} className="h-full w-full">
      {near ? <OriginRevenueChart {...props} /> : loading()}
    </div>
  );
}
