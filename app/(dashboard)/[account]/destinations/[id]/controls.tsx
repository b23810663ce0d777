"use client";

import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { Pause, Pencil, Play, RefreshCw, RotateCcw, Send, Trash2 } from "lucide-react";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DatePicker } from "@/components/ui/date-picker";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { toast } from "@/components/ui/toast";
import { accountPath } from "@/lib/accounts/paths";
import type { DestinationState } from "@/lib/db/tables/destinations";
import { ROTATION_OVERLAP_HOURS, type DestinationFormValues } from "@/lib/destinations/form-schemas";
import { useT } from "@/lib/i18n/client";
import {
  countReplayAction,
  deleteDestinationAction,
  replaySinceAction,
  resendEventAction,
  rotateDestinationSecretAction,
  sendTestEventAction,
  setDestinationStateAction,
  updateDestinationAction,
} from "../actions";
import { DestinationFields } from "../destination-fields";
import { SecretOnce } from "../secret-once";

type Destination = { id: string; url: string; description: string; eventTypes: string[] | null; state: DestinationState };

/** While attempts are queued or in flight, the page re-reads the log every few seconds. */
export function AutoRefresh({ active }: { active: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => router.refresh(), 3_000);
    return () => window.clearInterval(timer);
  }, [active, router]);
  return null;
}

export function DestinationControls({
  accountId,
  mode,
  destination,
}: {
  accountId: string;
  mode: "test" | "live";
  destination: Destination;
}) {
  const t = useT();
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);

  async function run<R>(
    key: string,
    call: () => Promise<{ ok: true; data: R } | { ok: false; error: string; message?: string }>,
    success?: string,
  ) {
    setBusy(key);
    try {
      const result = await call();
      if (!result.ok) return void toast.error(result.message ?? t(result.error));
      if (success) toast.success(success);
      router.refresh();
    } catch {
      toast.error(t("errors.unexpected"));
    } finally {
      setBusy(null);
    }
  }

  const paused = destination.state !== "enabled";
  return (
    <>
      <Button
        variant="outline"
        loading={busy === "test"}
        disabled={destination.state === "disabled"}
        onClick={() => run("test", () => sendTestEventAction({ accountId, destinationId: destination.id }), t("destinations.testSent"))}
      >
        <Send /> {t("destinations.sendTest")}
      </Button>
      <Button
        variant="outline"
        loading={busy === "state"}
        onClick={() =>
          run(
            "state",
            () => setDestinationStateAction({ accountId, destinationId: destination.id, state: paused ? "enabled" : "paused" }),
            paused ? t("destinations.resumed") : t("destinations.paused"),
          )
        }
      >
        {paused ? <Play /> : <Pause />} {paused ? t("destinations.resume") : t("destinations.pause")}
      </Button>
      <EditDialog accountId={accountId} mode={mode} destination={destination} />
      <RotateDialog accountId={accountId} destinationId={destination.id} />
      <Button
        variant="ghost"
        loading={busy === "delete"}
        onClick={async () => {
          if (!window.confirm(t("destinations.deleteConfirm", { url: destination.url }))) return;
          setBusy("delete");
          const result = await deleteDestinationAction({ accountId, destinationId: destination.id });
          setBusy(null);
          if (!result.ok) return void toast.error(t(result.error));
          toast.success(t("destinations.deleted"));
          router.push(accountPath(accountId, "/destinations"));
        }}
      >
        <Trash2 /> {t("destinations.delete")}
      </Button>
    </>
  );
}

function EditDialog({ accountId, mode, destination }: { accountId: string; mode: "test" | "live"; destination: Destination }) {
  const t = useT();
  const router = useRouter();
  const { form, dialog } = useFormDialog({
    schema: () => import("@/lib/destinations/form-schemas").then((m) => m.updateDestinationSchema),
    defaultValues: {
      destinationId: destination.id,
      destination: {
        url: destination.url,
        description: destination.description,
        allTypes: destination.eventTypes === null,
        eventTypes: (destination.eventTypes ?? []) as DestinationFormValues["eventTypes"],
      },
    },
    action: (values) => updateDestinationAction({ ...values, accountId }),
    successMessage: () => t("destinations.saved"),
    onSuccess: () => router.refresh(),
  });
  return (
    <FormDialog
      {...dialog}
      trigger={
        <Button variant="outline">
          <Pencil /> {t("destinations.edit")}
        </Button>
      }
      title={t("destinations.editTitle")}
      className="sm:max-w-2xl"
    >
      <DestinationFields control={form.control} prefix="destination." mode={mode} />
    </FormDialog>
  );
}

function RotateDialog({ accountId, destinationId }: { accountId: string; destinationId: string }) {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [overlap, setOverlap] = useState("24");
  const [pending, setPending] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  async function rotate() {
    setPending(true);
    try {
      const result = await rotateDestinationSecretAction({ accountId, destinationId, overlapHours: Number(overlap) });
      if (!result.ok) return void toast.error(t(result.error));
      setSecret(result.data.secret);
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  return (
    <DeferredDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setSecret(null);
      }}
      trigger={
        <Button variant="outline">
          <RotateCcw /> {t("destinations.rotation.rotate")}
        </Button>
      }
      title={t("destinations.rotation.title")}
      description={t("destinations.rotation.description")}
      className="sm:max-w-lg"
    >
      {secret ? (
        <SecretOnce secret={secret} title={t("destinations.rotation.newSecret")} description={t("destinations.rotation.newSecretHint")} />
      ) : (
        <div className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="rotation-overlap">{t("destinations.rotation.overlap")}</Label>
            <Select
              id="rotation-overlap"
              value={overlap}
              onValueChange={setOverlap}
              className="w-full"
              options={ROTATION_OVERLAP_HOURS.map((hours) => ({
                value: String(hours),
                label: t("destinations.rotation.overlapHours", { hours }),
              }))}
            />
          </div>
          <div className="flex justify-end">
            <Button onClick={rotate} loading={pending}>
              {t("destinations.rotation.confirm")}
            </Button>
          </div>
        </div>
      )}
    </DeferredDialog>
  );
}

/** Today and an hour ago in São Paulo, where the console's times are read. */
function defaultSince(): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/Sao_Paulo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .formatToParts(new Date(Date.now() - 3_600_000))
    .reduce<Record<string, string>>((acc, part) => ({ ...acc, [part.type]: part.value }), {});
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

export function ReplayPanel({ accountId, destinationId }: { accountId: string; destinationId: string }) {
  const t = useT();
  const router = useRouter();
  const [since, setSince] = useState(defaultSince);
  const [count, setCount] = useState<{ for: string; value: number } | null>(null);
  const [pending, setPending] = useState(false);
  const validTime = /^([01]\d|2[0-3]):[0-5]\d$/.test(since.time);
  // São Paulo has kept UTC−3 all year since 2019.
  const iso = since.date && validTime ? `${since.date}T${since.time}:00-03:00` : null;
  const counted = count && count.for === iso ? count.value : null;

  async function countEvents() {
    if (!iso) return;
    setPending(true);
    try {
      const result = await countReplayAction({ accountId, destinationId, since: iso });
      if (!result.ok)
        return void toast.error(t(result.ok === false && result.fieldErrors?.since ? result.fieldErrors.since[0]! : result.error));
      setCount({ for: iso, value: result.data.count });
    } finally {
      setPending(false);
    }
  }

  async function replay() {
    if (!iso) return;
    setPending(true);
    try {
      const result = await replaySinceAction({ accountId, destinationId, since: iso });
      if (!result.ok) return void toast.error(t(result.fieldErrors?.since ? result.fieldErrors.since[0]! : result.error));
      toast.success(t("destinations.replay.queued", { count: result.data.queued }));
      setCount(null);
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  return (
    <Card data-testid="replay-panel">
      <CardHeader>
        <CardTitle>{t("destinations.replay.title")}</CardTitle>
        <CardDescription>{t("destinations.replay.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="grid grid-cols-[minmax(0,1fr)_6rem] gap-2">
          <div className="space-y-1.5">
            <Label htmlFor="replay-date">{t("destinations.replay.date")}</Label>
            <DatePicker id="replay-date" value={since.date} onChange={(date) => setSince((s) => ({ ...s, date }))} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="replay-time">{t("destinations.replay.time")}</Label>
            <Input
              id="replay-time"
              value={since.time}
              inputMode="numeric"
              maxLength={5}
              aria-invalid={!validTime}
              onChange={(event) => {
                const digits = event.target.value.replace(/\D/g, "").slice(0, 4);
                setSince((s) => ({ ...s, time: digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits }));
              }}
            />
          </div>
        </div>
        {!validTime && <p className="text-xs text-destructive">{t("destinations.errors.timeInvalid")}</p>}
        {counted === null ? (
          <Button variant="outline" className="w-full" onClick={countEvents} loading={pending} disabled={!iso}>
            <RefreshCw /> {t("destinations.replay.count")}
          </Button>
        ) : (
          <div className="space-y-2">
            <p className="text-sm" data-testid="replay-count">
              {t("destinations.replay.willSend", { count: counted })}
            </p>
            <Button className="w-full" onClick={replay} loading={pending} disabled={counted === 0}>
              {t("destinations.replay.confirm", { count: counted })}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export function ResendButton({ accountId, destinationId, eventId }: { accountId: string; destinationId: string; eventId: string }) {
  const t = useT();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="ghost"
      size="sm"
      loading={pending}
      onClick={async () => {
        setPending(true);
        try {
          const result = await resendEventAction({ accountId, destinationId, eventId });
          if (!result.ok) return void toast.error(t(result.error));
          toast.success(t("destinations.resent"));
          router.refresh();
        } finally {
          setPending(false);
        }
      }}
    >
      {t("destinations.resend")}
    </Button>
  );
}
