export type NavIconName =
  | "home"
  | "receipt"
  | "arrow-down-left"
  | "arrow-up-right"
  | "link"
  | "undo"
  | "search"
  | "activity"
  | "user"
  | "settings"
  | "users"
  | "scroll"
  | "chart"
  | "layers"
  | "wallet"
  | "repeat"
  | "webhook"
  | "send"
  | "building";

/** Plain data so a server component can build the menu, its labels already in the user's language. */
export type NavItem = {
  /** An address, or with `accountIds` a path inside an account (`""` is its overview). */
  href: string;
  /** A page of one account: shown for these accounts only, under the account the page shows. */
  accountIds?: string[];
  label: string;
  icon: NavIconName;
  section?: "main" | "admin";
};
