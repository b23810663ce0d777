import { redirectToAccountPage } from "@/lib/auth/account-page";

/** The account-less address opens the same page of the account the user is working on, with the account in the URL. */
export default async function NewRefundRedirect({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return redirectToAccountPage("refunds.request", "/refunds/new", await searchParams);
}
