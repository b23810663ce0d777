"use client";

import { DayPicker } from "react-day-picker";
import { enUS, ptBR } from "react-day-picker/locale";
import "react-day-picker/style.css";

/** The calendar itself, loaded only when a date field's calendar is opened. */
export default function DateCalendar({
  dayFirst,
  selected,
  earliest,
  onPick,
}: {
  dayFirst: boolean;
  selected?: Date;
  earliest?: Date;
  onPick: (date: Date) => void;
}) {
  return (
    <DayPicker
      mode="single"
      locale={dayFirst ? ptBR : enUS}
      selected={selected}
      defaultMonth={selected ?? earliest}
      disabled={earliest ? { before: earliest } : undefined}
      onSelect={(date) => date && onPick(date)}
      className="console-calendar"
    />
  );
}
