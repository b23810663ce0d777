import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/destinations/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldDestinationsUrl(props: OldUrlProps) {
  return redirectOldUrl("destinations", props);
}
