import { notFound } from "next/navigation";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { routeId } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { getSubscription } from "@/lib/subscriptions/queries";
import { ChargesTable } from "./charges-table";
import { stateVariant, subscriptionWords } from "../words";

export default async function SubscriptionPage({ params }: { params: Promise<{ account: string; id: string }> }) {
  const { account, id } = await params;
  const ctx = await requireAccountPage("transactions.view", account);
  const subscriptionId = routeId(id);
  const view = subscriptionId ? await getSubscription(ctx.account.id, subscriptionId) : null;
  if (!view) notFound();
  const { t, format } = await getI18n();
  const words = subscriptionWords(t, format);
  const s = view.subscription;
  const facts: [string, React.ReactNode][] = [
    [t("subscriptions.detail.customer"), [s.clientName, s.clientEmail, s.clientDocument].filter(Boolean).join(" · ") || words.unknown],
    [t("subscriptions.detail.product"), s.productName ?? words.unknown],
    [t("subscriptions.detail.recurrence"), `${words.money(s.amountCents)} · ${words.method(s.paymentMethod)} · ${words.periodicity(view)}`],
    [t("subscriptions.detail.started"), words.dateTime(view.startedAt)],
    [
      t("subscriptions.columns.nextCharge"),
      view.nextCharge
        ? `${words.date(view.nextCharge.at)}${view.nextCharge.calculated ? ` (${t("subscriptions.calculatedNext")})` : ""}`
        : words.unknown,
    ],
    [
      t("subscriptions.detail.totals"),
      t("subscriptions.detail.totalsValue", { count: view.paid.count, total: words.money(view.paid.totalCents) }),
    ],
  ];
  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/subscriptions"), label: t("subscriptions.detail.back") }}
        title={s.clientName ?? s.identifier ?? s.gatewaySubscriptionId ?? words.unknown}
        description={s.ledgerId ? t("subscriptions.detail.createdByConsole") : t("subscriptions.detail.learned")}
        className="pb-0"
      />
      <div className="flex flex-wrap items-center gap-3">
        <Badge variant={stateVariant(view)} data-testid="subscription-state" data-state={view.state.state}>
          {words.state(view)}
        </Badge>
        <span className="text-sm text-muted-foreground">
          {t("subscriptions.columns.gatewayStatus")}:{" "}
          {s.gatewayStatus ? <code className="font-mono text-xs">{s.gatewayStatus}</code> : t("subscriptions.noGatewayStatus")}
        </span>
      </div>
      <Card>
        <CardContent>
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
            {facts.map(([label, value]) => (
              <div key={label}>
                <dt className="text-sm text-muted-foreground">{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <section aria-labelledby="subscription-charges" className="space-y-3">
        <h2 id="subscription-charges" className="text-lg font-semibold">
          {t("subscriptions.detail.charges")}
        </h2>
        {view.charges.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("subscriptions.detail.noCharges")}</p>
        ) : (
          <ChargesTable t={t} words={words} charges={view.charges} accountId={ctx.account.id} />
        )}
      </section>
      <Alert data-testid="subscription-cannot">
        <AlertTitle>{t("subscriptions.detail.cannotTitle")}</AlertTitle>
        <AlertDescription>{t("subscriptions.detail.cannot")}</AlertDescription>
      </Alert>
      <Card>
        <CardHeader>
          <CardTitle>{t("subscriptions.detail.gatewayRecord")}</CardTitle>
        </CardHeader>
        <CardContent>
          {s.gatewayRecord ? (
            <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs">{JSON.stringify(s.gatewayRecord, null, 2)}</pre>
          ) : (
            <p className="text-sm text-muted-foreground">{t("subscriptions.detail.noGatewayRecord")}</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
