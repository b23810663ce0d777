import { param, parseSearchParams, type RawSearchParams } from "@/lib/http/search-params";
import type { SubscriptionFilters } from "./queries";
import { STATE_NAMES } from "./rules";

/** The list's query string (`?state=&method=&product=&q=`), shared by the page and its CSV export. */
export function subscriptionsQuery(raw: RawSearchParams) {
  const { values, problems } = parseSearchParams(raw, {
    state: param.oneOf(STATE_NAMES),
    method: param.text(40),
    product: param.text(200),
    q: param.text(200),
  });
  const filters: SubscriptionFilters = { state: values.state, method: values.method, product: values.product, customer: values.q };
  return { filters, problems };
}
