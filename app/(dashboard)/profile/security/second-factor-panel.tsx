"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { QRCodeSVG } from "qrcode.react";
import { Download, ShieldCheck, ShieldOff } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Form } from "@/components/ui/form";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import type { SecondFactorStatus } from "@/lib/auth/second-factor";
import { useI18n } from "@/lib/i18n/client";
import { confirmSecondFactorAction, disableSecondFactorAction, regenerateRecoveryCodesAction, startSecondFactorAction } from "../actions";

type Enrolment = { uri: string; keyText: string };

export function SecondFactorPanel({ status: rendered }: { status: SecondFactorStatus }) {
  const { t, format } = useI18n();
  const router = useRouter();
  // What an action answered stands until the server renders the page again: the badge follows the
  // action at once, not at the next reload.
  const [answered, setAnswered] = useState<{ over: SecondFactorStatus; status: SecondFactorStatus } | null>(null);
  const status = answered?.over === rendered ? answered.status : rendered;
  const follow = (next: SecondFactorStatus) => {
    setAnswered({ over: rendered, status: next });
    router.refresh();
  };
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);

  async function start() {
    setStarting(true);
    const result = await startSecondFactorAction({});
    setStarting(false);
    if (result.ok) setEnrolment(result.data);
    else toast.error(t(result.error));
  }

  function finish() {
    setCodes(null);
    setEnrolment(null);
    router.refresh();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {t("profile.securityState")}
          <Badge variant={status.enabled ? "success" : "secondary"} data-testid="second-factor-state">
            {status.enabled ? t("profile.securityOn", { date: format.date(status.enabledAt!) }) : t("profile.securityOff")}
          </Badge>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-6 text-sm">
        {status.requiredForRole && !status.enabled && (
          <Alert variant="warning">
            <AlertDescription>{t("profile.securityRequired")}</AlertDescription>
          </Alert>
        )}
        {codes ? (
          <RecoveryCodes codes={codes} onDone={finish} />
        ) : enrolment ? (
          <EnrolmentStep
            enrolment={enrolment}
            onEnrolled={(recovery, next) => {
              setCodes(recovery);
              follow(next);
            }}
          />
        ) : status.enabled ? (
          <EnabledControls
            recoveryCodesLeft={status.recoveryCodesLeft}
            onNewCodes={(recovery, next) => {
              setCodes(recovery);
              follow(next);
            }}
            onDisabled={follow}
          />
        ) : (
          <Button onClick={start} loading={starting} data-testid="enable-second-factor">
            <ShieldCheck /> {t("profile.enable")}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

function EnrolmentStep({
  enrolment,
  onEnrolled,
}: {
  enrolment: Enrolment;
  onEnrolled: (codes: string[], status: SecondFactorStatus) => void;
}) {
  const { t } = useI18n();
  const { form, onSubmit, pending, events } = useActionForm({
    schema: () => import("@/lib/auth/schemas").then((m) => m.enrolCodeSchema),
    defaultValues: { code: "" },
    action: confirmSecondFactorAction,
    onSuccess: ({ recoveryCodes, status }) => {
      toast.success(t("profile.enrolled"));
      onEnrolled(recoveryCodes, status);
    },
  });

  return (
    <div className="space-y-4">
      <h3 className="font-medium">{t("profile.enrolTitle")}</h3>
      <p className="text-muted-foreground">{t("profile.enrolSteps")}</p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="w-fit rounded-md border bg-white p-2">
          <QRCodeSVG value={enrolment.uri} size={168} level="M" marginSize={1} role="img" aria-label="QR Code" />
        </div>
        <div className="space-y-1">
          <p className="text-muted-foreground">{t("profile.enrolKey")}</p>
          <div className="flex items-center gap-1">
            <code className="rounded bg-muted px-2 py-1 font-mono text-sm" data-testid="totp-key">
              {enrolment.keyText}
            </code>
            <CopyButton value={enrolment.keyText.replace(/\s+/g, "")} />
          </div>
        </div>
      </div>
      <Form {...form}>
        <form {...events} onSubmit={onSubmit} className="flex max-w-sm flex-col gap-3" noValidate>
          <TextField
            control={form.control}
            name="code"
            label={t("profile.enrolCode")}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={7}
          />
          <Button type="submit" loading={pending} className="w-fit">
            {t("profile.enrolConfirm")}
          </Button>
        </form>
      </Form>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useI18n();
  const text = codes.join("\n");
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: "codigos-de-recuperacao.txt" });
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4">
      <h3 className="font-medium">{t("profile.recoveryTitle")}</h3>
      <p className="text-muted-foreground">{t("profile.recoveryDescription")}</p>
      <ul className="grid w-fit grid-cols-2 gap-x-8 gap-y-1 rounded-md border bg-muted/40 p-4 font-mono" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={text} label={t("profile.recoveryCopy")} showLabel variant="outline" toastMessage={t("profile.recoveryCopied")} />
        <Button variant="outline" onClick={download}>
          <Download /> {t("profile.recoveryDownload")}
        </Button>
        <Button onClick={onDone} data-testid="recovery-codes-done">
          {t("profile.recoveryDone")}
        </Button>
      </div>
    </div>
  );
}

function EnabledControls({
  recoveryCodesLeft,
  onNewCodes,
  onDisabled,
}: {
  recoveryCodesLeft: number;
  onNewCodes: (codes: string[], status: SecondFactorStatus) => void;
  onDisabled: (status: SecondFactorStatus) => void;
}) {
  const { t } = useI18n();
  const regenerate = useFormDialog({
    schema: () => import("@/lib/auth/schemas").then((m) => m.secondFactorCodeSchema),
    defaultValues: { code: "" },
    action: regenerateRecoveryCodesAction,
    onSuccess: ({ recoveryCodes, status }) => onNewCodes(recoveryCodes, status),
  });
  const disable = useFormDialog({
    schema: () => import("@/lib/auth/schemas").then((m) => m.disableSecondFactorSchema),
    defaultValues: { password: "", code: "" },
    action: disableSecondFactorAction,
    successMessage: () => t("profile.disabled"),
    onSuccess: ({ status }) => onDisabled(status),
  });

  return (
    <div className="space-y-4">
      <p data-testid="recovery-left">{t("profile.recoveryLeft", { count: recoveryCodesLeft })}</p>
      <div className="flex flex-wrap gap-2">
        <FormDialog
          {...regenerate.dialog}
          trigger={<Button variant="outline">{t("profile.regenerate")}</Button>}
          title={t("profile.regenerate")}
          description={t("profile.regenerateDescription")}
          submitLabel={t("profile.regenerate")}
        >
          <TextField control={regenerate.form.control} name="code" label={t("profile.codeLabel")} autoComplete="one-time-code" />
        </FormDialog>
        <FormDialog
          {...disable.dialog}
          trigger={
            <Button variant="outline">
              <ShieldOff /> {t("profile.disable")}
            </Button>
          }
          title={t("profile.disableTitle")}
          description={t("profile.disableDescription")}
          submitLabel={t("profile.disable")}
        >
          <TextField
            control={disable.form.control}
            name="password"
            type="password"
            label={t("auth.password")}
            autoComplete="current-password"
          />
          <TextField control={disable.form.control} name="code" label={t("profile.codeLabel")} autoComplete="one-time-code" />
        </FormDialog>
      </div>
    </div>
  );
}
