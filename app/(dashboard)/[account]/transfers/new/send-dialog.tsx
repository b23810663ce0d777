"use client";

import { ShieldCheck } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { DialogFooter } from "@/components/ui/dialog-layout";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useT } from "@/lib/i18n/client";

export type SendDialogState = {
  open: boolean;
  password: string;
  passwordError: string | null;
  code: string;
  codeError: string | null;
  sending: boolean;
};

/** The password (and the authenticator's code) that sends the transfer. */
export function SendDialog({
  state: { open: passwordOpen, password, passwordError, code, codeError, sending },
  onOpenChange,
  setPassword,
  setCode,
  onSend,
  amount,
  clientIp,
  secondFactor,
}: {
  state: SendDialogState;
  onOpenChange: (open: boolean) => void;
  setPassword: (value: string) => void;
  setCode: (value: string) => void;
  onSend: () => Promise<void>;
  amount: string;
  clientIp: string | null;
  secondFactor: boolean;
}) {
  const t = useT();
  return (
    <DeferredDialog
      open={passwordOpen}
      onOpenChange={onOpenChange}
      trigger={
        <Button disabled={!clientIp}>
          <ShieldCheck /> {t("transfers.continue")}
        </Button>
      }
      title={t("transfers.passwordTitle")}
      description={t("transfers.passwordDescription", { amount })}
      className="sm:max-w-md"
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void onSend();
        }}
      >
        <div className="space-y-2">
          <Label htmlFor="transfer-password">{t("transfers.password")}</Label>
          <Input
            id="transfer-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={passwordError ? true : undefined}
            autoFocus
          />
          {passwordError && (
            <p role="alert" className="text-[13px] font-medium text-destructive">
              {passwordError}
            </p>
          )}
        </div>
        {secondFactor && (
          <div className="space-y-2">
            <Label htmlFor="transfer-code">{t("profile.codeLabel")}</Label>
            <Input
              id="transfer-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={32}
              className="font-mono tracking-widest"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              aria-invalid={codeError ? true : undefined}
            />
            {codeError && (
              <p role="alert" className="text-[13px] font-medium text-destructive">
                {codeError}
              </p>
            )}
          </div>
        )}
        <DialogFooter>
          <Button type="submit" loading={sending} disabled={!password || (secondFactor && !code.trim())}>
            {t("transfers.send")}
          </Button>
        </DialogFooter>
      </form>
    </DeferredDialog>
  );
}
