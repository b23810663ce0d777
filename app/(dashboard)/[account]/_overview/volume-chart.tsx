import type { DailyVolume } from "@/lib/overview/queries";

const PALETTE = ["bg-emerald-500", "bg-sky-500", "bg-amber-500", "bg-violet-500", "bg-rose-500", "bg-slate-400"];

type Props = {
  days: string[];
  rows: DailyVolume[];
  money: (cents: number) => string;
  dayLabel: (day: string) => string;
  /** A payment method in words (the code stays in `data-raw`). */
  methodName: (method: string) => string;
  labels: { summary: string; empty: string; day: string; total: string };
};

/** Stacked daily bars drawn with CSS (no chart library); a screen-reader table carries the same numbers. */
export function VolumeChart({ days, rows, money, dayLabel, methodName, labels }: Props) {
  const methods = [...new Set(rows.map((row) => row.method))].sort();
  const color = (method: string) => PALETTE[methods.indexOf(method) % PALETTE.length]!;
  const byDay = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const day = byDay.get(row.day) ?? new Map<string, number>();
    day.set(row.method, (day.get(row.method) ?? 0) + row.cents);
    byDay.set(row.day, day);
  }
  const totals = days.map((day) => [...(byDay.get(day)?.values() ?? [])].reduce((a, b) => a + b, 0));
  const max = Math.max(0, ...totals);
  if (max === 0) return <p className="py-10 text-center text-sm text-muted-foreground">{labels.empty}</p>;

  return (
    <figure className="space-y-3">
      <div
        role="img"
        aria-label={labels.summary}
        className="flex h-48 items-end gap-[3px] border-b border-border pb-px"
        data-testid="volume-chart"
      >
        {days.map((day, index) => {
          const perMethod = byDay.get(day);
          const total = totals[index]!;
          const title = `${dayLabel(day)}: ${money(total)}${perMethod ? ` (${[...perMethod].map(([m, c]) => `${methodName(m)} ${money(c)}`).join(", ")})` : ""}`;
          return (
            <div key={day} className="group flex h-full min-w-0 flex-1 flex-col justify-end" title={title}>
              <div
                className="flex flex-col-reverse overflow-hidden rounded-t-sm transition-opacity group-hover:opacity-80"
                style={{ height: `${(total / max) * 100}%` }}
              >
                {methods.map((method) => {
                  const cents = perMethod?.get(method) ?? 0;
                  return cents > 0 ? <div key={method} className={color(method)} style={{ height: `${(cents / total) * 100}%` }} /> : null;
                })}
              </div>
            </div>
          );
        })}
      </div>
      <div className="flex justify-between text-[11px] text-muted-foreground tabular-nums" aria-hidden>
        <span>{dayLabel(days[0]!)}</span>
        <span>{dayLabel(days[Math.floor(days.length / 2)]!)}</span>
        <span>{dayLabel(days.at(-1)!)}</span>
      </div>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
        {methods.map((method) => (
          <span key={method} className="inline-flex items-center gap-1.5">
            <span className={`size-2.5 rounded-sm ${color(method)}`} aria-hidden />
            <span data-raw={method}>{methodName(method)}</span>
          </span>
        ))}
      </figcaption>
      {/* sr-only on the table itself does not clip it (a table is as wide as its cells): at 390 px it widened the page. */}
      <div className="sr-only">
        <table>
          <thead>
            <tr>
              <th scope="col">{labels.day}</th>
              {methods.map((method) => (
                <th key={method} scope="col">
                  {methodName(method)}
                </th>
              ))}
              <th scope="col">{labels.total}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day, index) =>
              totals[index] ? (
                <tr key={day}>
                  <th scope="row">{dayLabel(day)}</th>
                  {methods.map((method) => (
                    <td key={method}>{money(byDay.get(day)?.get(method) ?? 0)}</td>
                  ))}
                  <td>{money(totals[index]!)}</td>
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
