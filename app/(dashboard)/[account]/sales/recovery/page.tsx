import Link from "next/link";
import { HeartHandshake } from "lucide-react";
import { ParamsProblems } from "@/components/params-problems";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { can } from "@/lib/auth/session";
import { formatBrPhone } from "@/lib/br/phone";
import { param, parseSearchParams, type RawSearchParams } from "@/lib/http/search-params";
import { getCodeText, getI18n } from "@/lib/i18n/server";
import { DEFAULT_RECOVERY_MAX_AGE_DAYS, getSalesSettings, recoveryWorklist, type RecoveryItem } from "@/lib/sales/queries";
import { SalesTabs } from "../sales-tabs";
import { RecoveryRowActions, type RecoveryRowContact } from "./row-actions";
import { splitDelay } from "./schemas";
import { RecoverySettingsDialog } from "./settings-dialog";

type I18n = Awaited<ReturnType<typeof getI18n>>;

const PAGE_SIZE = 50;

function amountText({ format, locale }: I18n, cents: number | null, currency: string): string {
  if (cents === null) return "—";
  if (currency === "BRL") return format.money(cents / 100);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "code" })
      .format(cents / 100)
      .replace(/\u00a0/g, " ");
  } catch {
    return `${currency} ${format.number(cents / 100)}`;
  }
}

function ageText({ t }: I18n, ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return t("salesRecovery.age.seconds", { count: seconds });
  if (seconds < 3600) return t("salesRecovery.age.minutes", { count: Math.floor(seconds / 60) });
  if (seconds < 48 * 3600) return t("salesRecovery.age.hours", { count: Math.floor(seconds / 3600) });
  return t("salesRecovery.age.days", { count: Math.floor(seconds / 86_400) });
}

const delayText = ({ t }: I18n, ms: number) => t("salesRecovery.delay", splitDelay(ms));

/** A São Paulo calendar day (YYYY-MM-DD) in the user's date format, read at noon so no zone moves it. */
const dayText = ({ format }: I18n, day: string) => format.date(`${day}T12:00:00-03:00`);

function originText({ t }: I18n, origin: RecoveryItem["origin"]): string {
  const parts = [origin.utmSource, origin.utmCampaign, origin.originLabel].filter((part): part is string => !!part);
  return parts.length > 0 ? [...new Set(parts)].join(" · ") : t("sales.origin.direct");
}

function contactOf(i18n: I18n, accountId: string, item: RecoveryItem, mayCreate: boolean): RecoveryRowContact {
  const { t } = i18n;
  // A renewal's fresh charge is a Pix (a declined card's number is not kept to charge it again).
  const kind = item.method === "BOLETO" && !item.renewal ? "boleto" : "pix";
  const link = item.payable ? (item.paymentUrl ?? (item.method === "PIX" ? item.pixCode : item.digitableLine)) : null;
  return {
    ledgerId: item.ledgerId,
    label: item.customer.name ?? t("salesRecovery.noName"),
    values: { name: item.customer.name, amountCents: item.amountCents, currency: item.currency, product: item.product, link },
    phone: item.customer.phone,
    email: item.customer.email,
    subject: item.product ? t("salesRecovery.message.subject", { product: item.product }) : t("salesRecovery.message.subjectGeneric"),
    newChargeHref: mayCreate ? `${accountPath(accountId, `/charges/new/${kind}`)}?from=${encodeURIComponent(item.ledgerId)}` : null,
    renewal: item.renewal !== null,
    payable: item.payable,
  };
}

/** A renewal row says so, with its subscription; one that can no longer be paid says why it shows no code. */
function RenewalNote({ item, i18n, accountId }: { item: RecoveryItem; i18n: I18n; accountId: string }) {
  const { t } = i18n;
  if (!item.renewal && item.payable) return null;
  return (
    <span className="mt-1 block space-y-0.5 text-xs text-muted-foreground">
      {item.renewal && (
        <span className="flex flex-wrap items-center gap-1.5" data-testid="recovery-renewal" data-renewal-number={item.renewal.number}>
          <Badge variant="outline">{t("salesRecovery.renewal.badge", { number: item.renewal.number })}</Badge>
          <Link
            href={accountPath(accountId, `/subscriptions/${item.renewal.subscriptionId}`)}
            className="truncate underline underline-offset-4 hover:text-foreground"
            data-testid="recovery-renewal-subscription"
          >
            {item.renewal.subscriptionIdentifier
              ? t("salesRecovery.renewal.subscription", { identifier: item.renewal.subscriptionIdentifier })
              : t("salesRecovery.renewal.subscriptionUnnamed")}
          </Link>
        </span>
      )}
      {!item.payable && (
        <span className="block" data-testid="recovery-unpayable">
          {t("salesRecovery.renewal.unpayable")}
        </span>
      )}
    </span>
  );
}

/** One unpaid charge: who, what, how much, since when, from where, and the ways to reach the customer. */
function RecoveryRow({
  item,
  i18n,
  codeText,
  accountId,
  mayRecover,
  mayCreate,
  templates,
}: {
  item: RecoveryItem;
  i18n: I18n;
  codeText: Awaited<ReturnType<typeof getCodeText>>;
  accountId: string;
  mayRecover: boolean;
  mayCreate: boolean;
  templates: { charge: string; renewal: string };
}) {
  const { t, format } = i18n;
  const age = ageText(i18n, item.ageMs);
  const method = codeText("method", item.method);
  return (
    <TableRow data-testid="recovery-row" data-identifier={item.identifier} data-ledger-id={item.ledgerId} className="[&>td]:align-top">
      <TableCell className="max-w-40 sm:max-w-56">
        <Link href={accountPath(accountId, `/transactions/${item.ledgerId}`)} className="block truncate font-medium hover:underline">
          {item.customer.name ?? <span className="text-muted-foreground italic">{t("salesRecovery.noName")}</span>}
        </Link>
        {mayRecover && (item.customer.email || item.customer.phone) && (
          <span className="block text-xs text-muted-foreground" data-testid="recovery-contact">
            {item.customer.email && <span className="block truncate">{item.customer.email}</span>}
            {item.customer.phone && <span className="block truncate tabular-nums">{formatBrPhone(item.customer.phone)}</span>}
          </span>
        )}
        {/* On narrow screens the hidden columns' essentials come under the name. */}
        <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground md:hidden">
          <Badge variant={item.method === "PIX" ? "info" : "secondary"}>{method}</Badge>
          {item.product && <span className="max-w-full truncate">{item.product}</span>}
          {item.method === "BOLETO" && item.dueDate && <span>{t("salesRecovery.due", { date: dayText(i18n, item.dueDate) })}</span>}
          <span className="sm:hidden">{age}</span>
        </span>
        <span className="md:hidden">
          <RenewalNote item={item} i18n={i18n} accountId={accountId} />
        </span>
      </TableCell>
      <TableCell className="hidden max-w-56 md:table-cell">
        <div className="flex min-w-0 items-center gap-2">
          <Badge variant={item.method === "PIX" ? "info" : "secondary"}>{method}</Badge>
          <span className="truncate" title={item.product ?? undefined}>
            {item.product ?? <span className="text-muted-foreground">{t("salesRecovery.noProduct")}</span>}
          </span>
        </div>
        {item.method === "BOLETO" && item.dueDate && (
          <span className="mt-1 block text-xs text-muted-foreground">{t("salesRecovery.due", { date: dayText(i18n, item.dueDate) })}</span>
        )}
        <RenewalNote item={item} i18n={i18n} accountId={accountId} />
      </TableCell>
      <TableCell className="text-right font-medium tabular-nums" data-testid="recovery-amount">
        {amountText(i18n, item.amountCents, item.currency)}
      </TableCell>
      <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
        <time dateTime={item.createdAt.toISOString()} title={t("salesRecovery.createdAt", { date: format.dateTime(item.createdAt) })}>
          {age}
        </time>
      </TableCell>
      <TableCell
        className="hidden max-w-40 whitespace-normal text-muted-foreground [overflow-wrap:anywhere] lg:table-cell"
        data-testid="recovery-origin"
      >
        {originText(i18n, item.origin)}
      </TableCell>
      {mayRecover && (
        <TableCell className="text-right">
          <RecoveryRowActions
            accountId={accountId}
            template={item.renewal ? templates.renewal : templates.charge}
            row={contactOf(i18n, accountId, item, mayCreate)}
          />
        </TableCell>
      )}
    </TableRow>
  );
}

export default async function SalesRecoveryPage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const ctx = await requireAccountPage("sales.view", (await params).account);
  const i18n = await getI18n();
  const codeText = await getCodeText();
  const { t, format } = i18n;
  const accountId = ctx.account.id;
  const { values, problems } = parseSearchParams(await searchParams, { cursor: param.cursor() });
  const settings = await getSalesSettings(accountId);
  const list = await recoveryWorklist(accountId, {
    pixDelayMs: settings.pixDelayMs,
    boletoDelayMs: settings.boletoDelayMs,
    cursor: values.cursor ?? null,
    limit: PAGE_SIZE,
  });
  const mayRecover = can(ctx, "sales.recover", accountId);
  const mayCreate = mayRecover && can(ctx, "charges.create", accountId);
  const delays = { pix: delayText(i18n, settings.pixDelayMs), boleto: delayText(i18n, settings.boletoDelayMs) };
  const here = accountPath(accountId, "/sales/recovery");
  const pix = splitDelay(settings.pixDelayMs);
  const boleto = splitDelay(settings.boletoDelayMs);

  return (
    <div className="space-y-5">
      <PageHeader
        title={t("salesRecovery.title")}
        description={t("salesRecovery.description")}
        className="pb-0"
        actions={
          can(ctx, "sales.settings", accountId) && (
            <RecoverySettingsDialog
              key={settings.updatedAt?.toISOString() ?? "defaults"}
              accountId={accountId}
              values={{
                pixDelay: String(pix.count),
                pixUnit: pix.unit,
                boletoDelay: String(boleto.count),
                boletoUnit: boleto.unit,
                messageTemplate: settings.messageTemplate,
                renewalTemplate: settings.renewalTemplate,
              }}
              lastSaved={
                settings.updatedByEmail && settings.updatedAt
                  ? t("salesRecovery.settings.lastSaved", { email: settings.updatedByEmail, date: format.dateTime(settings.updatedAt) })
                  : null
              }
            />
          )
        }
      >
        <SalesTabs accountId={accountId} current="recovery" />
      </PageHeader>
      <ParamsProblems problems={problems} />
      <div className="space-y-1 text-sm" data-testid="recovery-scope">
        <p className="font-medium" data-testid="recovery-count">
          {t("salesRecovery.count", { count: list.total })}
        </p>
        <p className="max-w-3xl text-muted-foreground">
          {t("salesRecovery.scope", { ...delays, days: DEFAULT_RECOVERY_MAX_AGE_DAYS })}
          {settings.isDefault && <> {t("salesRecovery.defaults")}</>}
        </p>
        {!mayRecover && <p className="max-w-3xl text-muted-foreground">{t("salesRecovery.contactsHidden")}</p>}
      </div>
      {list.items.length === 0 ? (
        <EmptyState
          icon={<HeartHandshake />}
          title={t("salesRecovery.empty")}
          description={t("salesRecovery.emptyHint", delays)}
          data-testid="recovery-empty"
        />
      ) : (
        <Card className="gap-0 py-0">
          <Table data-testid="recovery-table">
            <TableCaption className="sr-only">{t("salesRecovery.tableCaption")}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>{t("salesRecovery.columns.customer")}</TableHead>
                <TableHead className="hidden md:table-cell">{t("salesRecovery.columns.charge")}</TableHead>
                <TableHead className="text-right">{t("salesRecovery.columns.amount")}</TableHead>
                <TableHead className="hidden sm:table-cell">{t("salesRecovery.columns.age")}</TableHead>
                <TableHead className="hidden lg:table-cell">{t("salesRecovery.columns.origin")}</TableHead>
                {mayRecover && <TableHead className="text-right">{t("salesRecovery.columns.actions")}</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.items.map((item) => (
                <RecoveryRow
                  key={item.ledgerId}
                  item={item}
                  i18n={i18n}
                  codeText={codeText}
                  accountId={accountId}
                  mayRecover={mayRecover}
                  mayCreate={mayCreate}
                  templates={{ charge: settings.messageTemplate, renewal: settings.renewalTemplate }}
                />
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {(values.cursor || list.nextCursor) && (
        <nav aria-label={t("salesRecovery.pages.label")} className="flex justify-end gap-2">
          {values.cursor && (
            <Button asChild variant="outline" size="sm">
              <Link href={here}>{t("salesRecovery.pages.first")}</Link>
            </Button>
          )}
          {list.nextCursor && (
            <Button asChild variant="outline" size="sm">
              <Link href={`${here}?${new URLSearchParams({ cursor: list.nextCursor })}`}>{t("salesRecovery.pages.next")}</Link>
            </Button>
          )}
        </nav>
      )}
    </div>
  );
}
