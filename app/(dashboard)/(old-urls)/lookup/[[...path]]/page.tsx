import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/lookup/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldLookupUrl(props: OldUrlProps) {
  return redirectOldUrl("lookup", props);
}
