"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { signInWithCredentials } from "@/lib/auth/browser";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import { TextField } from "@/components/forms/fields";
import { useDeferredResolver } from "@/components/forms/deferred-resolver";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { useT } from "@/lib/i18n/client";
import type { signInSchema } from "@/lib/auth/schemas";

type Values = z.infer<typeof signInSchema>;

export function SignInForm() {
  const t = useT();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  // The second step keeps the e-mail and password typed in the first; both are sent again with the code.
  const [askCode, setAskCode] = useState(false);
  const { resolver, events } = useDeferredResolver<Values>(() => import("@/lib/auth/schemas").then((m) => m.signInSchema));
  const form = useForm<Values>({ resolver, defaultValues: { email: "", password: "", code: "" } });

  async function onSubmit(values: Values) {
    setError(null);
    if (askCode && !values.code?.trim()) {
      form.setError("code", { message: t("auth.codeRequired") });
      return;
    }
    const result = await signInWithCredentials({
      email: values.email,
      password: values.password,
      code: askCode ? (values.code ?? "") : "",
    }).catch(() => null);
    if (!result) {
      setError(t("errors.unexpected"));
      return;
    }
    if (result.ok && !result.error) {
      router.replace("/");
      router.refresh();
      return;
    }
    const [code, minutes] = (result.error ?? "").split(":");
    if (code === "code_required") {
      setAskCode(true);
      return;
    }
    if (code === "code_invalid") {
      form.setValue("code", "");
      form.setError("code", { message: t("auth.codeInvalid") });
      return;
    }
    if (code === "throttled") {
      setError(minutes ? t("auth.throttledFor", { minutes: Number(minutes) }) : t("auth.throttled"));
    } else {
      setError(t("auth.invalidCredentials"));
      setAskCode(false);
    }
    form.setValue("password", "");
    form.setValue("code", "");
  }

  function backToPassword() {
    setAskCode(false);
    setError(null);
    form.setValue("password", "");
    form.setValue("code", "");
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">{t(askCode ? "auth.codeTitle" : "auth.signInTitle")}</CardTitle>
        <CardDescription>{t(askCode ? "auth.codeDescription" : "auth.signInDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form {...events} onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
            {error && (
              <Alert variant="destructive" data-testid="sign-in-error">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            )}
            {askCode ? (
              <TextField
                key="code"
                control={form.control}
                name="code"
                label={t("auth.code")}
                autoComplete="one-time-code"
                inputMode="text"
                autoFocus
                maxLength={32}
                className="[&_input]:font-mono [&_input]:tracking-widest"
              />
            ) : (
              <>
                <TextField control={form.control} name="email" label={t("auth.email")} type="email" autoComplete="username" autoFocus />
                <TextField
                  control={form.control}
                  name="password"
                  label={t("auth.password")}
                  type="password"
                  autoComplete="current-password"
                />
              </>
            )}
            <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
              {t(askCode ? "auth.verify" : "auth.signIn")}
            </Button>
            {askCode && (
              <Button type="button" variant="ghost" className="w-full" onClick={backToPassword}>
                {t("auth.back")}
              </Button>
            )}
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}
