"use client";

import * as React from "react";
import { CalendarDays } from "lucide-react";
import dynamic from "next/dynamic";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { DeferredPopover } from "@/components/ui/deferred-popover";
import { useI18n } from "@/lib/i18n/client";
import { cn } from "@/lib/utils";

const DateCalendar = dynamic(() => import("./date-calendar"), { ssr: false, loading: () => <div className="size-64" aria-busy /> });

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** For filters that move on whole dates only: a date still being typed (onChange gets it as typed) changes nothing. */
export const isWholeDayOrEmpty = (value: string) => value === "" || ISO.test(value);

/** A calendar date (YYYY-MM-DD) as a local Date at noon: the day never shifts with the browser's zone. */
function toDate(iso: string): Date | undefined {
  const match = ISO.exec(iso);
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12) : undefined;
}

function toIso(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

/** The console's language decides the order: dd/mm/aaaa in pt-BR, mm/dd/yyyy in English. */
function display(iso: string, dayFirst: boolean): string {
  const match = ISO.exec(iso);
  if (!match) return "";
  const [, y, m, d] = match;
  return dayFirst ? `${d}/${m}/${y}` : `${m}/${d}/${y}`;
}

function parse(text: string, dayFirst: boolean): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [day, month] = dayFirst ? [Number(match[1]), Number(match[2])] : [Number(match[2]), Number(match[1])];
  const date = new Date(Number(match[3]), month - 1, day, 12);
  if (date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return toIso(date);
}

function maskDate(text: string): string {
  const digits = text.replace(/\D/g, "").slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join("/");
}

export type DatePickerProps = Omit<React.ComponentProps<typeof Input>, "value" | "onChange" | "min" | "type"> & {
  /** YYYY-MM-DD, or "" for none. */
  value: string;
  onChange: (value: string) => void;
  /** The first day that may be chosen (YYYY-MM-DD). */
  min?: string;
};

/**
 * A date field drawn by the console (not the browser's, which follows the browser's language):
 * typed as dd/mm/aaaa (pt-BR) or mm/dd/yyyy (English), or picked on a calendar in the console's
 * language. The value stays an ISO calendar date.
 */
export function DatePicker({ value, onChange, min, className, id, disabled, ...inputProps }: DatePickerProps) {
  const { locale, t } = useI18n();
  const dayFirst = locale === "pt-BR";
  const [text, setText] = React.useState(() => display(value, dayFirst));
  const [open, setOpen] = React.useState(false);
  const [shown, setShown] = React.useState(value);
  if (shown !== value) {
    setShown(value);
    // Our own echo (a whole date, or an unfinished one handed on as typed) keeps the text; a value
    // changed from outside (a reset, a calendar pick) replaces it.
    if ((parse(text, dayFirst) ?? text) !== value) setText(display(value, dayFirst));
  }

  function type(next: string) {
    const masked = maskDate(next);
    setText(masked);
    if (masked === "") onChange("");
    else {
      const iso = parse(masked, dayFirst);
      // An incomplete or impossible date is kept as typed; the form's schema names the problem.
      onChange(iso ?? masked);
    }
  }

  const selected = toDate(value);
  const earliest = min ? toDate(min) : undefined;
  return (
    <div className={cn("relative", className)}>
      <Input
        {...inputProps}
        id={id}
        disabled={disabled}
        inputMode="numeric"
        autoComplete="off"
        placeholder={dayFirst ? "dd/mm/aaaa" : "mm/dd/yyyy"}
        value={text}
        onChange={(event) => type(event.target.value)}
        className="pr-10"
      />
      <DeferredPopover
        open={open}
        onOpenChange={setOpen}
        align="end"
        className="w-auto p-2"
        trigger={
          <Button
            type="button"
            variant="ghost"
            size="icon"
            disabled={disabled}
            className="absolute top-1/2 right-0.5 size-8 -translate-y-1/2"
            aria-label={t("ui.datePicker.open")}
            data-testid={id ? `${id}-calendar` : undefined}
          >
            <CalendarDays className="size-4" aria-hidden />
          </Button>
        }
      >
        {open && (
          <DateCalendar
            dayFirst={dayFirst}
            selected={selected}
            earliest={earliest}
            onPick={(date) => {
              const iso = toIso(date);
              setText(display(iso, dayFirst));
              onChange(iso);
              setOpen(false);
            }}
          />
        )}
      </DeferredPopover>
    </div>
  );
}
