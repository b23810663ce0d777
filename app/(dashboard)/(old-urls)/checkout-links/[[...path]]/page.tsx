import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/checkout-links/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldCheckoutLinksUrl(props: OldUrlProps) {
  return redirectOldUrl("checkout-links", props);
}
