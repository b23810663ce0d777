import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/producer/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldProducerUrl(props: OldUrlProps) {
  return redirectOldUrl("producer", props);
}
