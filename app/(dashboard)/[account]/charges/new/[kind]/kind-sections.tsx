"use client";

import { Fragment, type ReactNode } from "react";
import type { Control } from "react-hook-form";
import type { ChargeFormKind, ChargeFormValues } from "@/lib/charges/form-values";
import {
  AddressSection,
  CardSection,
  ClientSection,
  CryptoSection,
  DueDateSection,
  FeesSection,
  MetadataSection,
  ProductsSection,
  SplitsSection,
  SubscriptionSections,
} from "./sections";

type Props = { kind: ChargeFormKind; control: Control<ChargeFormValues>; requestIp: string | null };
type SectionName = "client" | "address" | "card" | "crypto" | "subscription" | "products" | "fees" | "splits" | "metadata" | "dueDate";

/** What each kind of charge asks for, in the order the form shows it (after the amount). */
const SECTIONS_BY_KIND: Record<ChargeFormKind, SectionName[]> = {
  pix: ["client", "products", "fees", "splits", "metadata", "dueDate"],
  card: ["client", "address", "card", "products", "fees", "splits", "metadata"],
  boleto: ["client", "products", "fees", "splits", "metadata", "dueDate"],
  crypto: ["client", "crypto", "products", "metadata"],
  deposit: [],
  "pix-subscription": ["client", "subscription"],
  "card-subscription": ["client", "card", "subscription"],
  "crypto-subscription": ["client", "crypto", "subscription"],
};

const RENDER: Record<SectionName, (props: Props) => ReactNode> = {
  client: ({ control }) => <ClientSection control={control} />,
  address: ({ control }) => <AddressSection control={control} />,
  card: ({ control, requestIp }) => <CardSection control={control} requestIp={requestIp} />,
  crypto: ({ control, kind }) => <CryptoSection control={control} kind={kind} />,
  subscription: ({ control }) => <SubscriptionSections control={control} />,
  // Only the Pix charge's products may say they are physical goods.
  products: ({ control, kind }) => <ProductsSection control={control} physical={kind === "pix"} />,
  fees: ({ control }) => <FeesSection control={control} />,
  splits: ({ control }) => <SplitsSection control={control} />,
  metadata: ({ control }) => <MetadataSection control={control} />,
  dueDate: ({ control }) => <DueDateSection control={control} />,
};

export function KindSections(props: Props) {
  return SECTIONS_BY_KIND[props.kind].map((name) => <Fragment key={name}>{RENDER[name](props)}</Fragment>);
}
