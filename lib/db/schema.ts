// The whole console schema; each area keeps its tables in lib/db/tables/<area>.ts.
export * from "./tables/core";
export * from "./tables/ledger";
export * from "./tables/payouts";
export * from "./tables/views";
export * from "./tables/notifications";
export * from "./tables/checks";
export * from "./tables/auth";
export * from "./tables/destinations";
export * from "./tables/payout-batches";
export * from "./tables/sales";
export * from "./tables/balance";
export * from "./tables/subscriptions";
