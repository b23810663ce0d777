"use client";

import { useState } from "react";
import { DatePicker, isWholeDayOrEmpty } from "@/components/ui/date-picker";

/**
 * One end of the custom period, in the console's own date field (dd/mm/aaaa in pt-BR, whatever the
 * browser's language) as the transactions filters have it; the GET form sends the ISO day.
 */
export function PeriodDateField({ id, name, label, defaultValue }: { id: string; name: string; label: string; defaultValue: string }) {
  const [value, setValue] = useState(defaultValue);
  return (
    <div className="space-y-1 text-xs font-medium text-muted-foreground">
      <label htmlFor={id} className="block">
        {label}
      </label>
      <DatePicker id={id} value={value} onChange={(next) => isWholeDayOrEmpty(next) && setValue(next)} className="w-40" />
      <input type="hidden" name={name} value={value} />
    </div>
  );
}
