"use client";

import { useEffect, useTransition } from "react";
import { useRouter } from "next/navigation";

/**
 * Re-reads the page's server data `everyMs` after the previous read has landed, never on a fixed
 * clock: on a busy server a read may take longer than the interval, and a refresh started while
 * another is on its way replaces it, so a fixed interval could keep the page from ever updating.
 * Rendered only while the batch has rows left or unsettled, so it stops by itself.
 */
export function LivePoll({ everyMs = 1_500 }: { everyMs?: number }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  useEffect(() => {
    if (pending) return;
    const timer = window.setTimeout(() => startTransition(() => router.refresh()), everyMs);
    return () => window.clearTimeout(timer);
  }, [pending, everyMs, router]);
  return null;
}
