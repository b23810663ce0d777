import "server-only";
import { notFound } from "next/navigation";
import { redirectToAccountPage, redirectToOwningAccount } from "@/lib/auth/account-page";
import type { Permission } from "@/lib/auth/permissions";
import { getCheckoutLink } from "@/lib/checkout-links/queries";
import { routeId, type RawSearchParams } from "@/lib/http/search-params";
import { getLedgerRow } from "@/lib/ledger/queries";
import { getTransfer } from "@/lib/transfers/queries";

type OldFeature = {
  /** Pages by their first segment ("" is the list): each opens under the account the user last worked on. */
  pages: Record<string, Permission>;
  /** `/<feature>/<id>`: the object is looked up in the user's accounts to find its own. */
  detail?: { permission: Permission; owns: (accountId: string, id: string) => Promise<boolean> };
};

/** The addresses used before every account page carried its account: `/<feature>/…` → `/<account>/<feature>/…`. */
const OLD_FEATURES = {
  charges: {
    pages: { new: "charges.create" },
    detail: { permission: "transactions.view", owns: async (accountId, id) => (await getLedgerRow(accountId, id))?.origin === "console" },
  },
  "checkout-links": {
    pages: { "": "checkout.create", new: "checkout.create" },
    detail: { permission: "checkout.create", owns: async (accountId, id) => !!(await getCheckoutLink(accountId, id)) },
  },
  transfers: {
    pages: { "": "transfers.view", new: "transfers.create" },
    detail: { permission: "transfers.view", owns: async (accountId, id) => !!(await getTransfer(accountId, id)) },
  },
  refunds: { pages: { "": "transactions.view", new: "refunds.request" } },
  transactions: {
    pages: { "": "transactions.view", unconfirmed: "transactions.view" },
    detail: { permission: "transactions.view", owns: async (accountId, id) => !!(await getLedgerRow(accountId, id)) },
  },
  webhooks: { pages: { "": "webhooks.view" } },
  lookup: { pages: { "": "transactions.view" } },
  producer: { pages: { "": "account.view" } },
  destinations: { pages: { "": "destinations.view" } },
} satisfies Record<string, OldFeature>;

export type OldUrlProps = { params: Promise<{ path?: string[] }>; searchParams: Promise<RawSearchParams> };

function encodeSegment(segment: string): string {
  try {
    return encodeURIComponent(segment);
  } catch {
    notFound(); // a lone surrogate cannot be re-encoded: no page has such an address
  }
}

/** Answers an old address with one redirect to its address under an account, or not found. */
export async function redirectOldUrl(name: keyof typeof OLD_FEATURES, { params, searchParams }: OldUrlProps): Promise<never> {
  const feature: OldFeature = OLD_FEATURES[name];
  const segments = (await params).path ?? [];
  const first = segments[0] ?? "";
  const page = Object.hasOwn(feature.pages, first) ? feature.pages[first] : undefined;
  if (page) {
    const path = ["", name, ...segments.map(encodeSegment)].join("/");
    return redirectToAccountPage(page, path, await searchParams);
  }
  if (feature.detail && segments.length === 1) {
    const id = routeId(first) ?? notFound();
    const { permission, owns } = feature.detail;
    return redirectToOwningAccount(permission, `/${name}/${encodeSegment(id)}`, (accountId) => owns(accountId, id));
  }
  notFound();
}
