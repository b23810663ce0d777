"use client";

import * as React from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "@/lib/utils";
import { useT } from "@/lib/i18n/client";
import { Deferred } from "./deferred";
import type { SelectOption } from "./select-popup";

export type { SelectOption } from "./select-popup";

export type SelectProps = Omit<React.ComponentProps<"button">, "value" | "onChange" | "children"> & {
  value: string;
  onValueChange: (value: string) => void;
  options: SelectOption[];
  /** Shown while no option is chosen; a translated "Selecione…" by default. */
  placeholder?: string;
  size?: "sm" | "default";
};

const loadSelect = () => import("./select-popup").then((m) => m.SelectPopup);

/**
 * A select drawn by the console: its trigger (a combobox showing the chosen option) renders at
 * once; the list (radix select, popper) loads when the trigger is first hovered, focused or pressed.
 * Trigger props (id, aria-*, ref, onBlur, data-*) land on the trigger.
 */
export function Select({
  value,
  onValueChange,
  options,
  placeholder,
  size = "default",
  className,
  disabled,
  ...triggerProps
}: SelectProps) {
  const t = useT();
  const selected = options.find((option) => option.value === value);
  const trigger = (
    <button
      type="button"
      // aria-expanded and aria-controls come from Deferred (closed) and then from radix's trigger (open, its list's id).
      // eslint-disable-next-line jsx-a11y/role-has-required-aria-props
      role="combobox"
      aria-autocomplete="none"
      data-slot="select-trigger"
      data-size={size}
      data-placeholder={selected ? undefined : ""}
      disabled={disabled}
      className={cn(
        "flex w-full items-center justify-between gap-2 rounded-md border border-input bg-background px-3 py-2 text-sm whitespace-nowrap shadow-xs transition-[color,box-shadow,border-color] outline-none data-[size=default]:h-9 data-[size=sm]:h-8 data-[placeholder]:text-muted-foreground dark:bg-input/20 dark:hover:bg-input/40 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 *:data-[slot=select-value]:line-clamp-1 *:data-[slot=select-value]:flex *:data-[slot=select-value]:items-center *:data-[slot=select-value]:gap-2 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 [&_svg:not([class*='text-'])]:text-muted-foreground",
        className,
      )}
      {...triggerProps}
    >
      <span data-slot="select-value" className="pointer-events-none">
        {selected ? selected.label : (placeholder ?? t("ui.selectPlaceholder"))}
      </span>
      <ChevronDown className="size-4 opacity-60" aria-hidden="true" />
    </button>
  );
  return <Deferred kind="select" load={loadSelect} trigger={trigger} props={{ value, onValueChange, options, disabled }} />;
}
