import { redirectOldUrl, type OldUrlProps } from "../../redirect";

/** `/webhooks/…` from before the account was in the address: one redirect to the same page of an account. */
export default function OldWebhooksUrl(props: OldUrlProps) {
  return redirectOldUrl("webhooks", props);
}
