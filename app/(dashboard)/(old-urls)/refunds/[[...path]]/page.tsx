import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/refunds/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldRefundsUrl(props: OldUrlProps) {
  return redirectOldUrl("refunds", props);
}
