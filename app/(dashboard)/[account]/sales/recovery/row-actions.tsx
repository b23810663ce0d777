"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Check, Mail, MessageCircle, MessageSquareText, RotateCw, Tag } from "lucide-react";
import { FormDialog } from "@/components/forms/form-dialog";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { DialogFooter } from "@/components/ui/dialog-layout";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Hint } from "@/components/ui/hint";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { answerOf, isNoAnswer } from "@/lib/actions/answer";
import { useT } from "@/lib/i18n/client";
import { mailtoUrl, renderRecoveryMessage, whatsappUrl, type RecoveryMessageValues } from "@/lib/sales/message";
import { RECOVERY_MARK_STATES, type RecoveryMarkInput } from "@/lib/sales/schemas";
import type { RecoveryChannel } from "@/lib/sales/schemas";
import { markRecoveryAction, recordRecoveryContactAction } from "./actions";

/** What a row's actions need: only rendered for those who may see customers' contacts. */
export type RecoveryRowContact = {
  ledgerId: string;
  /** The customer's name as the row shows it (a placeholder when unknown). */
  label: string;
  values: RecoveryMessageValues;
  phone: string | null;
  email: string | null;
  subject: string;
  newChargeHref: string | null;
  /** A subscription's renewal: the message uses the renewal template. */
  renewal: boolean;
  /** False when the charge can no longer be paid: the message carries no link, and says to make a fresh charge. */
  payable: boolean;
};

type Props = { accountId: string; template: string; row: RecoveryRowContact };

/** A row's buttons: the message (edited, copied, sent through WhatsApp or e-mail), a new charge from this one, and the mark. */
export function RecoveryRowActions({ accountId, template, row }: Props) {
  const t = useT();
  return (
    <div className="flex flex-col items-end gap-1 sm:flex-row sm:items-center sm:justify-end sm:gap-1.5">
      <MessageDialog accountId={accountId} template={template} row={row} />
      {row.newChargeHref && (
        <Hint content={t("salesRecovery.actions.newChargeLabel", { name: row.label })}>
          <Button asChild variant="ghost" size="sm" data-testid="recovery-new-charge">
            <Link href={row.newChargeHref} aria-label={t("salesRecovery.actions.newChargeLabel", { name: row.label })}>
              <RotateCw /> <span className="hidden 2xl:inline">{t("salesRecovery.actions.newCharge")}</span>
            </Link>
          </Button>
        </Hint>
      )}
      <MarkDialog accountId={accountId} row={row} />
    </div>
  );
}

function MessageDialog({ accountId, template, row }: Props) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [marking, setMarking] = useState(false);
  const whatsapp = whatsappUrl(row.phone, text);
  const mailto = mailtoUrl(row.email, row.subject, text);

  /** The contact is recorded by the button, or by opening WhatsApp or e-mail with the message (the link opens all the same). */
  async function markContacted(channel?: RecoveryChannel) {
    setMarking(true);
    try {
      const result = await answerOf<unknown>(() =>
        channel
          ? recordRecoveryContactAction({ accountId, ledgerId: row.ledgerId, channel })
          : markRecoveryAction({ accountId, ledgerId: row.ledgerId, state: "contacted" }),
      );
      if (isNoAnswer(result)) {
        toast.warning(t("errors.noAnswer.title"), { description: t("errors.noAnswer.body") });
        return;
      }
      if (!result.ok) {
        toast.error(t(result.error));
        return;
      }
      setOpen(false);
      toast.success(
        channel ? t("salesRecovery.message.contactRecorded", { channel }) : t("salesRecovery.mark.saved", { state: "contacted" }),
      );
    } finally {
      setMarking(false);
    }
  }

  return (
    <DeferredDialog
      open={open}
      onOpenChange={(next) => {
        if (next) setText(renderRecoveryMessage(template, row.values));
        setOpen(next);
      }}
      trigger={
        <Button
          variant="outline"
          size="sm"
          data-testid="recovery-message"
          aria-label={t("salesRecovery.actions.messageLabel", { name: row.label })}
        >
          <MessageSquareText /> <span className="hidden sm:inline">{t("salesRecovery.actions.message")}</span>
        </Button>
      }
      title={t("salesRecovery.message.title", { name: row.label })}
      description={t("salesRecovery.message.description")}
      className="sm:max-w-xl"
    >
      {/* min-w-0: a Pix code is one long word, and the textarea sizes to its content: without it the dialog widens past the screen. */}
      <div className="min-w-0 space-y-2">
        <Label htmlFor={`recovery-text-${row.ledgerId}`}>{t("salesRecovery.message.text")}</Label>
        <Textarea
          id={`recovery-text-${row.ledgerId}`}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={6}
          className="max-h-72"
          data-testid="recovery-message-text"
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <CopyButton
          value={text}
          label={t("salesRecovery.message.copy")}
          toastMessage={t("salesRecovery.message.copied")}
          showLabel
          variant="outline"
          size="default"
          data-testid="recovery-copy"
        />
        {whatsapp ? (
          <Button asChild variant="outline">
            <a
              href={whatsapp}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="recovery-whatsapp"
              onClick={() => void markContacted("whatsapp")}
            >
              <MessageCircle /> {t("salesRecovery.message.whatsapp")}
            </a>
          </Button>
        ) : (
          <Button variant="outline" disabled data-testid="recovery-whatsapp" aria-describedby={`recovery-no-phone-${row.ledgerId}`}>
            <MessageCircle /> {t("salesRecovery.message.whatsapp")}
          </Button>
        )}
        {mailto ? (
          <Button asChild variant="outline">
            <a href={mailto} data-testid="recovery-email" onClick={() => void markContacted("email")}>
              <Mail /> {t("salesRecovery.message.email")}
            </a>
          </Button>
        ) : (
          <Button variant="outline" disabled data-testid="recovery-email" aria-describedby={`recovery-no-email-${row.ledgerId}`}>
            <Mail /> {t("salesRecovery.message.email")}
          </Button>
        )}
      </div>
      {!row.payable && (
        <p className="text-[13px] text-muted-foreground" data-testid="recovery-message-unpayable">
          {t("salesRecovery.message.unpayable")}
        </p>
      )}
      {(!whatsapp || !mailto) && (
        <ul className="space-y-0.5 text-[13px] text-muted-foreground">
          {!whatsapp && <li id={`recovery-no-phone-${row.ledgerId}`}>{t("salesRecovery.message.noPhone")}</li>}
          {!mailto && <li id={`recovery-no-email-${row.ledgerId}`}>{t("salesRecovery.message.noEmail")}</li>}
        </ul>
      )}
      <DialogFooter>
        <Button onClick={() => void markContacted()} loading={marking} data-testid="recovery-mark-contacted">
          <Check /> {t("salesRecovery.message.markContacted")}
        </Button>
      </DialogFooter>
    </DeferredDialog>
  );
}

function MarkDialog({ accountId, row }: { accountId: string; row: RecoveryRowContact }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const initial: RecoveryMarkInput = { ledgerId: row.ledgerId, state: "contacted", note: "" };
  const { form, submit, prepare } = useActionForm<RecoveryMarkInput, { state: RecoveryMarkInput["state"] }>({
    schema: () => import("@/lib/sales/schemas").then((m) => m.recoveryMarkSchema),
    defaultValues: initial,
    action: (values) => markRecoveryAction({ ...values, accountId, ledgerId: row.ledgerId }),
    onSuccess: ({ state }) => {
      setOpen(false);
      toast.success(t("salesRecovery.mark.saved", { state }));
      router.refresh();
    },
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          prepare().catch(() => {});
          form.reset(initial);
        }
        setOpen(next);
      }}
      trigger={
        <Button
          variant="ghost"
          size="sm"
          data-testid="recovery-mark"
          aria-label={t("salesRecovery.actions.markLabel", { name: row.label })}
        >
          <Tag /> <span className="hidden 2xl:inline">{t("salesRecovery.actions.mark")}</span>
        </Button>
      }
      title={t("salesRecovery.mark.title", { name: row.label })}
      description={t("salesRecovery.mark.description")}
      form={form}
      onSubmit={submit}
      submitLabel={t("salesRecovery.mark.submit")}
      className="sm:max-w-md"
    >
      <FormField
        control={form.control}
        name="state"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t("salesRecovery.mark.state")}</FormLabel>
            <FormControl>
              <RadioGroup value={field.value} onValueChange={field.onChange} className="gap-2">
                {RECOVERY_MARK_STATES.map((state) => (
                  <Label
                    key={state}
                    className="flex cursor-pointer items-start gap-3 rounded-md border p-3 leading-snug font-normal has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-primary/5"
                  >
                    <RadioGroupItem value={state} className="mt-0.5" />
                    <span className="grid gap-1">
                      <span className="font-medium">{t(`salesRecovery.mark.${state}`)}</span>
                      <span className="text-[13px] text-muted-foreground">{t(`salesRecovery.mark.${state}Hint`)}</span>
                    </span>
                  </Label>
                ))}
              </RadioGroup>
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        control={form.control}
        name="note"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t("salesRecovery.mark.note")}</FormLabel>
            <FormControl>
              <Textarea {...field} value={field.value ?? ""} rows={3} placeholder={t("salesRecovery.mark.notePlaceholder")} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
    </FormDialog>
  );
}
