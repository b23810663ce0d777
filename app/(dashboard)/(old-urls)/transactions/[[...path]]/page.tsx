import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/transactions/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldTransactionsUrl(props: OldUrlProps) {
  return redirectOldUrl("transactions", props);
}
