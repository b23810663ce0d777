import { redirectToAccountPage } from "@/lib/auth/account-page";

/** The sidebar's account-less address opens the destinations of the account the user is working on. */
export default async function DestinationsRedirect() {
  return redirectToAccountPage("destinations.view", "/destinations");
}
