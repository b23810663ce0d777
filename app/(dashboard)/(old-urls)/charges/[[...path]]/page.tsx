import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/charges/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldChargesUrl(props: OldUrlProps) {
  return redirectOldUrl("charges", props);
}
