"use client";

import { Printer } from "lucide-react";
import { Button } from "@/components/ui/button";

/** The browser's print dialog prints the receipt or saves it as PDF; the shell is hidden in print. */
export function PrintReceiptButton({ label }: { label: string }) {
  return (
    <Button variant="outline" className="print:hidden" onClick={() => window.print()} data-testid="print-receipt">
      <Printer /> {label}
    </Button>
  );
}
