"use client";

import { StatusBadge } from "@/components/payments/status-badge";
import { useCallback, useMemo, useState } from "react";
import Link from "next/link";
import { accountPath } from "@/lib/accounts/paths";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Activity, Radio, RefreshCw } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Select, type SelectOption } from "@/components/ui/select";
import { CodeWord } from "@/components/ui/code-word";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useI18n } from "@/lib/i18n/client";
import { useLiveEvents, type FeedNotification, type FeedFilter } from "@/lib/feed/client";
import { ConfirmationBadge, EventBadge } from "./event-badge";

const ALL = "__all__";

type Props = {
  initialEvents: FeedNotification[];
  accounts: { id: string; name: string }[];
  facets: { events: string[]; methods: string[] };
  filter: FeedFilter;
  pageSize: number;
  /** The feed cursor the list was read at: the live stream resumes from it. */
  since: number;
};

function mergeEvent(list: FeedNotification[], incoming: FeedNotification, limit: number): FeedNotification[] {
  const existing = list.find((e) => e.id === incoming.id);
  if (existing) {
    if (existing.seq >= incoming.seq) return list;
    return list.map((e) => (e.id === incoming.id ? { ...incoming, ledgerId: incoming.ledgerId ?? e.ledgerId } : e));
  }
  return [incoming, ...list].sort((a, b) => b.firstReceivedAt.localeCompare(a.firstReceivedAt) || b.seq - a.seq).slice(0, limit);
}

/** Highlighted rows: the newest ones only, so a busy feed does not copy an ever-growing set per event. */
function markFresh(ids: Set<string>, id: string, limit: number): Set<string> {
  const next = new Set(ids).add(id);
  return next.size > limit * 2 ? new Set([...next].slice(-limit)) : next;
}

export function ActivityFeed({ initialEvents, accounts, facets, filter, pageSize, since }: Props) {
  const { t } = useI18n();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [events, setEvents] = useState(initialEvents);
  const [fresh, setFresh] = useState<Set<string>>(() => new Set());
  const [seenFilter, setSeenFilter] = useState(initialEvents);
  // New server data (filters changed): start again from it.
  if (seenFilter !== initialEvents) {
    setSeenFilter(initialEvents);
    setEvents(initialEvents);
    setFresh(new Set());
  }

  const onEvent = useCallback(
    (event: FeedNotification) => {
      setEvents((list) => mergeEvent(list, event, pageSize));
      // A replayed event the list already held is not news.
      if (event.seq > since) setFresh((ids) => markFresh(ids, event.id, pageSize));
    },
    [pageSize, since],
  );
  const mode = useLiveEvents(filter, onEvent, since);

  const accountName = useMemo(() => new Map(accounts.map((a) => [a.id, a.name])), [accounts]);
  const eventOptions = useMemo(
    () => [...new Set([...facets.events, ...events.map((e) => e.event).filter((e): e is string => !!e)])].sort(),
    [facets.events, events],
  );
  const methodOptions = useMemo(
    () => [...new Set([...facets.methods, ...events.map((e) => e.paymentMethod).filter((m): m is string => !!m)])].sort(),
    [facets.methods, events],
  );

  function setParam(name: string, value: string) {
    const params = new URLSearchParams(searchParams.toString());
    if (value === ALL) params.delete(name);
    else params.set(name, value);
    const query = params.toString();
    router.push(query ? `${pathname}?${query}` : pathname);
  }

  const filtered = !!(filter.accountId || filter.event || filter.paymentMethod);

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3 lg:flex lg:flex-wrap">
          {accounts.length > 1 && (
            <FilterSelect
              label={t("activity.feed.account")}
              value={filter.accountId ?? ALL}
              allLabel={t("activity.feed.allAccounts")}
              options={accounts.map((a) => ({ value: a.id, label: a.name }))}
              onChange={(v) => setParam("account", v)}
            />
          )}
          <FilterSelect
            label={t("activity.feed.event")}
            value={filter.event ?? ALL}
            allLabel={t("activity.feed.allEvents")}
            options={eventOptions.map((e) => ({ value: e, label: <CodeWord group="gatewayEvent" code={e} /> }))}
            onChange={(v) => setParam("event", v)}
          />
          <FilterSelect
            label={t("activity.feed.method")}
            value={filter.paymentMethod ?? ALL}
            allLabel={t("activity.feed.allMethods")}
            options={methodOptions.map((m) => ({ value: m, label: <CodeWord group="method" code={m} /> }))}
            onChange={(v) => setParam("method", v)}
          />
          {filtered && (
            <Button variant="ghost" className="self-end" onClick={() => router.push(pathname)}>
              {t("activity.feed.clear")}
            </Button>
          )}
        </div>
        <LiveIndicator mode={mode} />
      </div>

      {events.length === 0 ? (
        <EmptyState
          icon={<Activity />}
          title={filtered ? t("activity.feed.emptyFiltered") : t("activity.feed.empty")}
          description={filtered ? undefined : t("activity.feed.emptyHint")}
        />
      ) : (
        <Card className="py-0">
          <Table data-testid="activity-feed">
            <TableHeader>
              <TableRow>
                <TableHead>{t("activity.feed.time")}</TableHead>
                <TableHead>{t("activity.feed.event")}</TableHead>
                <TableHead>{t("activity.feed.transaction")}</TableHead>
                <TableHead className="text-right">{t("activity.feed.amount")}</TableHead>
                <TableHead>{t("activity.feed.status")}</TableHead>
                <TableHead className="text-right">{t("activity.feed.received")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {events.map((event) => (
                <FeedRow
                  key={event.id}
                  event={event}
                  fresh={fresh.has(event.id)}
                  accountName={accounts.length > 1 ? (accountName.get(event.accountId) ?? "") : null}
                />
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {events.length >= pageSize && <p className="text-xs text-muted-foreground">{t("activity.feed.shown", { count: pageSize })}</p>}
    </div>
  );
}

function FilterSelect({
  label,
  value,
  allLabel,
  options,
  onChange,
}: {
  label: string;
  value: string;
  allLabel: string;
  options: SelectOption[];
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1.5 text-sm font-medium">
      {label}
      <Select
        className="w-full lg:w-56"
        aria-label={label}
        value={value}
        onValueChange={onChange}
        options={[{ value: ALL, label: allLabel }, ...options]}
      />
    </label>
  );
}

function LiveIndicator({ mode }: { mode: "connecting" | "live" | "polling" }) {
  const { t } = useI18n();
  if (mode === "live") {
    return (
      <Badge variant="success" data-testid="feed-mode" data-mode="live" className="self-start lg:self-end">
        <Radio className="animate-pulse" /> {t("activity.feed.live")}
      </Badge>
    );
  }
  return (
    <Badge variant="secondary" data-testid="feed-mode" data-mode={mode} className="self-start lg:self-end">
      <RefreshCw className={mode === "connecting" ? "animate-spin" : undefined} />{" "}
      {mode === "polling" ? t("activity.feed.polling") : t("activity.feed.connecting")}
    </Badge>
  );
}

/** One notification; `accountName` is shown when the feed spans several accounts (null: it does not). */
function FeedRow({ event, fresh, accountName }: { event: FeedNotification; fresh: boolean; accountName: string | null }) {
  const { t, format } = useI18n();
  return (
    <TableRow
      data-testid="feed-row"
      data-event-id={event.id}
      data-transaction-id={event.gatewayTransactionId ?? ""}
      data-event={event.event ?? ""}
      className={fresh ? "bg-primary/5 transition-colors" : undefined}
    >
      <TableCell className="whitespace-nowrap text-muted-foreground tabular-nums">
        <Link href={`/activity/${event.id}`} className="hover:underline">
          {format.dateTimeZoned(event.firstReceivedAt)}
        </Link>
        {accountName !== null && <div className="text-xs">{accountName}</div>}
      </TableCell>
      <TableCell>
        <Link href={`/activity/${event.id}`} className="hover:opacity-80">
          <EventBadge event={event} />
        </Link>
      </TableCell>
      <TableCell className="max-w-[18rem]">
        {event.gatewayTransactionId || event.identifier ? (
          <div className="min-w-0">
            {event.ledgerId ? (
              <Link
                href={accountPath(event.accountId, `/transactions/${event.ledgerId}`)}
                className="block truncate font-mono text-xs font-medium hover:underline"
              >
                {event.gatewayTransactionId ?? event.identifier}
              </Link>
            ) : (
              <span className="block truncate font-mono text-xs">{event.gatewayTransactionId ?? event.identifier}</span>
            )}
            {event.identifier && event.gatewayTransactionId && (
              <span className="block truncate text-xs text-muted-foreground">{event.identifier}</span>
            )}
          </div>
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums">
        {event.amountCents === null ? "—" : format.money(event.amountCents / 100)}
        {event.paymentMethod && (
          <div className="text-xs text-muted-foreground">
            <CodeWord group="method" code={event.paymentMethod} />
          </div>
        )}
      </TableCell>
      <TableCell>
        <span className="inline-flex flex-wrap items-center gap-1.5">
          <StatusBadge kind={event.kind === "transfer" ? "transfer" : "transaction"} status={event.status} />
          <ConfirmationBadge event={event} />
        </span>
      </TableCell>
      <TableCell className="text-right tabular-nums" data-testid="received-count">
        {t("activity.feed.receivedTimes", { count: event.deliveries })}
      </TableCell>
    </TableRow>
  );
}
