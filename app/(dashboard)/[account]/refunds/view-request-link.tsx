"use client";

import { useEffect, useRef } from "react";
import Link from "next/link";
import { Undo2 } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * "Ver pedido": takes the place of "Pedir reembolso" once a request is open. When it appears
 * because the request was just sent, the button that had the focus is gone: the focus comes here
 * rather than falling to the page.
 */
export function ViewRefundRequestLink({ href, label }: { href: string; label: string }) {
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) ref.current?.focus();
  }, []);
  return (
    <Button asChild variant="outline">
      <Link ref={ref} href={href} data-testid="view-refund-request">
        <Undo2 /> {label}
      </Link>
    </Button>
  );
}
