import type { Locale } from "@/lib/locale";
import { common } from "./common";
import { ui } from "./ui";
import { shell } from "./shell";
import { br } from "./br";
import { errors } from "./errors";
import { auth } from "./auth";
import { nav } from "./nav";
import { accounts } from "./accounts";
import { users } from "./users";
import { profile } from "./profile";
import { home } from "./home";
import { charges } from "./charges";
import { transfers } from "./transfers";
import { payouts } from "./payouts";
import { refunds } from "./refunds";
import { checkoutLinks } from "./checkout-links";
import { activity } from "./activity";
import { transactions } from "./transactions";
import { producer } from "./producer";
import { overview } from "./overview";
import { audit } from "./audit";
import { status } from "./status";
import { destinations } from "./destinations";
import { params } from "./params";
import { sales } from "./sales";
import { salesRecovery } from "./sales-recovery";
import { balance } from "./balance";
import { subscriptions } from "./subscriptions";
import { vocab } from "./vocab";

/** Each area registers its namespace here. */
const areas = {
  common,
  ui,
  shell,
  br,
  errors,
  auth,
  nav,
  accounts,
  users,
  profile,
  home,
  charges,
  transfers,
  payouts,
  refunds,
  checkoutLinks,
  activity,
  transactions,
  producer,
  overview,
  audit,
  status,
  destinations,
  params,
  sales,
  salesRecovery,
  balance,
  subscriptions,
  vocab,
} as const;

export type Areas = typeof areas;

function build(locale: Locale): Record<string, unknown> {
  return Object.fromEntries(Object.entries(areas).map(([name, area]) => [name, area[locale]]));
}

export const dictionaries: Record<Locale, Record<string, unknown>> = { "pt-BR": build("pt-BR"), en: build("en") };
