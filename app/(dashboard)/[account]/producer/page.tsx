import { AlertTriangle, BadgeCheck, Building2, UserRound } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccountPage } from "@/lib/auth/account-page";
import { getI18n } from "@/lib/i18n/server";
import { documentKind, formatDocument } from "@/lib/br/document";
import { formatBrPhone } from "@/lib/br/phone";
import { formatCep } from "@/lib/br/cep";
import { getProducerProfile } from "@/lib/producer/profile";
import type { ProducerRecord } from "@/lib/gateway/schemas/producer";
import { gatewayErrorMessage } from "../transactions/gateway-error-message";

type Address = NonNullable<ProducerRecord["address"]>;
type Translate = Awaited<ReturnType<typeof getI18n>>["t"];

export default async function ProducerPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("account.view", (await params).account);
  const { t } = await getI18n();
  const result = await getProducerProfile(ctx.account.id);

  return (
    <div className="space-y-6">
      <PageHeader title={t("producer.title")} description={t("producer.description")} />
      {!result.ok ? (
        <Alert variant="destructive" data-testid="producer-error" className="max-w-2xl">
          <AlertTriangle aria-hidden />
          <AlertTitle>{t("producer.errorTitle")}</AlertTitle>
          <AlertDescription>{gatewayErrorMessage(t, result)}</AlertDescription>
        </Alert>
      ) : (
        <>
          {!result.kycComplete && (
            <Alert variant="warning" data-testid="kyc-notice" className="max-w-3xl">
              <AlertTriangle aria-hidden />
              <AlertTitle>{t("producer.kycTitle")}</AlertTitle>
              <AlertDescription>
                <ul className="list-disc pl-4">
                  {!result.producer.document && <li>{t("producer.kycMissingDocument")}</li>}
                  {!result.producer.address && <li>{t("producer.kycMissingAddress")}</li>}
                </ul>
                <p className="mt-1">{t("producer.kycHint")}</p>
              </AlertDescription>
            </Alert>
          )}
          <div className="grid gap-6 lg:grid-cols-2">
            <Card data-testid="producer-card">
              <CardHeader>
                <CardTitle className="flex flex-wrap items-center gap-2">
                  <UserRound className="size-4 text-muted-foreground" aria-hidden />
                  {result.producer.name}
                  {result.kycComplete && (
                    <Badge variant="success">
                      <BadgeCheck aria-hidden />
                      {t("producer.kycComplete")}
                    </Badge>
                  )}
                </CardTitle>
              </CardHeader>
              <CardContent className="space-y-5">
                <Details
                  rows={[
                    [t("producer.email"), result.producer.email],
                    [t("producer.phone"), formatBrPhone(result.producer.phone)],
                    [documentLabel(t, result.producer.document), result.producer.document ? formatDocument(result.producer.document) : "—"],
                  ]}
                />
                <AddressBlock t={t} address={result.producer.address} />
              </CardContent>
            </Card>
            {result.producer.legalRepresentative && (
              <Card data-testid="legal-representative">
                <CardHeader>
                  <CardTitle className="flex items-center gap-2">
                    <Building2 className="size-4 text-muted-foreground" aria-hidden />
                    {t("producer.legalRepresentative")}
                  </CardTitle>
                </CardHeader>
                <CardContent className="space-y-5">
                  <Details
                    rows={[
                      [t("producer.name"), result.producer.legalRepresentative.name ?? "—"],
                      [
                        t("producer.phone"),
                        result.producer.legalRepresentative.phone ? formatBrPhone(result.producer.legalRepresentative.phone) : "—",
                      ],
                      [
                        documentLabel(t, result.producer.legalRepresentative.document),
                        result.producer.legalRepresentative.document ? formatDocument(result.producer.legalRepresentative.document) : "—",
                      ],
                    ]}
                  />
                  <AddressBlock t={t} address={result.producer.legalRepresentative.address} />
                </CardContent>
              </Card>
            )}
          </div>
        </>
      )}
    </div>
  );
}

function documentLabel(t: Translate, document: string | undefined): string {
  const kind = document ? documentKind(document) : null;
  return kind === "cpf" ? t("producer.documentCpf") : kind === "cnpj" ? t("producer.documentCnpj") : t("producer.document");
}

function Details({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function AddressBlock({ t, address }: { t: Translate; address: Address | undefined }) {
  if (!address) return <p className="text-sm text-muted-foreground">{t("producer.noAddress")}</p>;
  const line1 = [address.street, address.number].filter(Boolean).join(", ");
  const line2 = [address.complement, address.neighborhood].filter(Boolean).join(" — ");
  // The interface sends the state as ISO 3166-2 (`BR-RJ`); people read the UF.
  const line3 = [address.city, address.state?.replace(/^BR-/, "")].filter(Boolean).join(" / ");
  return (
    <div className="space-y-1 text-sm">
      <div className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{t("producer.address")}</div>
      <address className="not-italic" data-testid="producer-address">
        {line1 && <div>{line1}</div>}
        {line2 && <div>{line2}</div>}
        {line3 && <div>{line3}</div>}
        <div>
          {address.zipCode && (
            <span>
              {t("producer.zipCode")} {formatCep(address.zipCode)}
            </span>
          )}
          {address.country && <span className="text-muted-foreground"> · {address.country}</span>}
        </div>
      </address>
    </div>
  );
}
