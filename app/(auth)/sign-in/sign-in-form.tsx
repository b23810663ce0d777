"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { signIn } from "next-auth/react";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { useT } from "@/lib/i18n/client";
import { signInSchema } from "@/lib/auth/schemas";

type Values = z.infer<typeof signInSchema>;

export function SignInForm() {
  const t = useT();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  // The second step keeps the e-mail and password typed in the first; both are sent again with the code.
  const [askCode, setAskCode] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(signInSchema), defaultValues: { email: "", password: "", code: "" } });

  async function onSubmit(values: Values) {
    setError(null);
    if (askCode && !values.code?.trim()) {
      form.setError("code", { message: t("auth.codeRequired") });
      return;
    }
    const result = await signIn("credentials", { ...values, code: askCode ? values.code : "", redirect: false });
    if (result?.ok && !result.error) {
      router.replace("/");
      router.refresh();
      return;
    }
    const [code, minutes] = (result?.error ?? "").split(":");
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

  if (askCode) {
    return (
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">{t("auth.codeTitle")}</CardTitle>
          <CardDescription>{t("auth.codeDescription")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form {...form}>
            <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
              {error && (
                <Alert variant="destructive" data-testid="sign-in-error">
                  <AlertDescription>{error}</AlertDescription>
                </Alert>
              )}
              <FormField
                control={form.control}
                name="code"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{t("auth.code")}</FormLabel>
                    <FormControl>
                      <Input autoComplete="one-time-code" inputMode="text" autoFocus maxLength={32} className="font-mono tracking-widest" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
                {t("auth.verify")}
              </Button>
              <Button type="button" variant="ghost" className="w-full" onClick={backToPassword}>
                {t("auth.back")}
              </Button>
            </form>
          </Form>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">{t("auth.signInTitle")}</CardTitle>
        <CardDescription>{t("auth.signInDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
            {error && (
              <Alert variant="destructive" data-testid="sign-in-error">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            )}
            <FormField
              control={form.control}
              name="email"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("auth.email")}</FormLabel>
                  <FormControl>
                    <Input type="email" autoComplete="username" autoFocus {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="password"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("auth.password")}</FormLabel>
                  <FormControl>
                    <Input type="password" autoComplete="current-password" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
              {t("auth.signIn")}
            </Button>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}
