import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/transfers/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldTransfersUrl(props: OldUrlProps) {
  return redirectOldUrl("transfers", props);
}
