"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/skeleton";

// The charting library loads after the page (it is not part of the first load); the tables beside each chart carry the same numbers.
const loading = () => <Skeleton className="h-full w-full" />;
export const LazyDailyRevenueChart = dynamic(() => import("./revenue-charts").then((m) => m.DailyRevenueChart), { ssr: false, loading });
export const LazyOriginRevenueChart = dynamic(() => import("./revenue-charts").then((m) => m.OriginRevenueChart), { ssr: false, loading });
