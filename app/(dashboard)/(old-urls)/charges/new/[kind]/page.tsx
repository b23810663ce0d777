import { notFound } from "next/navigation";
import { redirectToAccountPage } from "@/lib/auth/account-page";
import { CHARGE_FORM_KINDS } from "@/lib/charges/form-values";

/** The account-less address opens the same form of the account the user is working on, with the account in the URL. */
export default async function NewChargeOfKindRedirect({
  params,
  searchParams,
}: {
  params: Promise<{ kind: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { kind } = await params;
  // Only a known kind is carried over: anything else (a lone surrogate cannot even be re-encoded) is not found.
  if (!(CHARGE_FORM_KINDS as readonly string[]).includes(kind)) notFound();
  return redirectToAccountPage("charges.create", `/charges/new/${encodeURIComponent(kind)}`, await searchParams);
}
