import { redirectToAccountPage } from "@/lib/auth/account-page";

/** The account-less address opens the same form of the account the user is working on, with the account in the URL. */
export default async function NewChargeOfKindRedirect({
  params,
  searchParams,
}: {
  params: Promise<{ kind: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { kind } = await params;
  return redirectToAccountPage("charges.create", `/charges/new/${encodeURIComponent(kind)}`, await searchParams);
}
