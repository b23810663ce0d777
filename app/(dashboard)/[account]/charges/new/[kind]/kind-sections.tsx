"use client";

import { Fragment, type ReactNode } from "react";
import type { Control } from "react-hook-form";
import type { ChargeFormKind, ChargeFormValues } from "@/lib/charges/form-values";
import type { ChargeSection } from "@/lib/charges/kinds/define";
import { CHARGE_FORMS } from "@/lib/charges/kinds/forms";
import {
  AddressSection,
  CardSection,
  ClientSection,
  CryptoSection,
  DueDateSection,
  FeesSection,
  MetadataSection,
  OriginSection,
  ProductsSection,
  SplitsSection,
  SubscriptionSections,
} from "./sections";

type Props = { kind: ChargeFormKind; control: Control<ChargeFormValues>; requestIp: string | null; buyerIp?: string | null };

/** How each section is drawn; which sections a kind shows, and in what order, its definition says. */
const RENDER: Record<ChargeSection, (props: Props) => ReactNode> = {
  client: ({ control }) => <ClientSection control={control} />,
  address: ({ control }) => <AddressSection control={control} />,
  card: ({ control, requestIp, buyerIp }) => <CardSection control={control} requestIp={requestIp} buyerIp={buyerIp ?? null} />,
  crypto: ({ control, kind }) => <CryptoSection control={control} kind={kind} />,
  subscription: ({ control }) => <SubscriptionSections control={control} />,
  // Only the Pix charge's products may say they are physical goods.
  products: ({ control, kind }) => <ProductsSection control={control} physical={kind === "pix"} />,
  fees: ({ control }) => <FeesSection control={control} />,
  splits: ({ control }) => <SplitsSection control={control} />,
  origin: ({ control }) => <OriginSection control={control} />,
  metadata: ({ control }) => <MetadataSection control={control} />,
  dueDate: ({ control }) => <DueDateSection control={control} />,
};

export function KindSections(props: Props) {
  return CHARGE_FORMS[props.kind].sections.map((name) => <Fragment key={name}>{RENDER[name](props)}</Fragment>);
}
