"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/**
 * While a record is settling on the server (an unknown outcome the reconciler is checking, a
 * notification being confirmed), re-renders the page every few seconds so the person sees it
 * settle without clicking. Rendered only while unsettled, so it stops by itself.
 */
export function SettlingRefresh({ everyMs = 2_000 }: { everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [router, everyMs]);
  return null;
}
