"use client";

import { useEffect, useState } from "react";
import { Clock } from "lucide-react";
import { cn } from "@/lib/utils";

function remaining(target: number, now: number) {
  const total = Math.max(0, Math.floor((target - now) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return { total, text: hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}` };
}

/** Time left until `expiresAt`; renders nothing until mounted so server and browser clocks never disagree in the HTML. */
export function Countdown({
  expiresAt,
  label,
  expiredLabel,
  className,
}: {
  expiresAt: string;
  /** Message with a `{time}` placeholder, e.g. "Expira em {time}". */
  label: string;
  expiredLabel: string;
  className?: string;
}) {
  const target = Date.parse(expiresAt);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, 1000);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, []);
  if (Number.isNaN(target) || now === null) return null;
  const left = remaining(target, now);
  const expired = left.total === 0;
  return (
    <span
      data-testid="countdown"
      data-expires-at={expiresAt}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium tabular-nums",
        expired ? "bg-destructive/10 text-destructive" : left.total < 300 ? "bg-warning/12 text-warning" : "bg-muted text-muted-foreground",
        className,
      )}
    >
      <Clock className="size-3.5" aria-hidden />
      {expired ? expiredLabel : label.replace("{time}", left.text)}
    </span>
  );
}
