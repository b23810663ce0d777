"use client";

import { currencyFormatter } from "@/lib/i18n/format";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export type DailyPoint = { label: string; current: number; previous: number | null };
export type OriginPoint = { label: string; revenue: number };

type MoneyProps = { locale: string; currency: string };

function moneyFormatter({ locale, currency }: MoneyProps, compact = false) {
  const format = currencyFormatter(locale, currency, { compact });
  return (value: unknown) => (typeof value === "number" ? format(value) : String(value ?? ""));
}

const AXIS = { fontSize: 12, fill: "var(--muted-foreground)" };

// The charts are hidden from assistive technology and keyboard focus: the table beside each one carries the same numbers.

/** Each day's confirmed revenue (in the currency's units) beside the comparison period's same-position day. */
export function DailyRevenueChart({
  points,
  labels,
  ...money
}: MoneyProps & { points: DailyPoint[]; labels: { current: string; comparison: string } }) {
  const full = moneyFormatter(money);
  const compact = moneyFormatter(money, true);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
        <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={false} minTickGap={16} />
        {/* As wide as its longest label ("R$ 2,8 mil" is never cut or wrapped onto two lines). */}
        <YAxis tick={AXIS} tickLine={false} axisLine={false} width="auto" tickFormatter={compact} />
        <Tooltip formatter={full} contentStyle={{ borderRadius: 8, fontSize: 12 }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line
          type="linear"
          dataKey="current"
          name={labels.current}
          stroke="var(--primary)"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          type="linear"
          dataKey="previous"
          name={labels.comparison}
          stroke="var(--muted-foreground)"
          strokeDasharray="4 4"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}

/** Revenue of the origins with the most revenue, largest first. */
export function OriginRevenueChart({ points, label, ...money }: MoneyProps & { points: OriginPoint[]; label: string }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart accessibilityLayer={false} data={points} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
        <XAxis type="number" tick={AXIS} tickLine={false} axisLine={false} tickFormatter={moneyFormatter(money, true)} />
        <YAxis type="category" dataKey="label" tick={AXIS} tickLine={false} axisLine={false} width={130} />
        <Tooltip formatter={moneyFormatter(money)} contentStyle={{ borderRadius: 8, fontSize: 12 }} cursor={{ fill: "var(--muted)" }} />
        <Bar dataKey="revenue" name={label} fill="var(--primary)" radius={[0, 4, 4, 0]} maxBarSize={28} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
