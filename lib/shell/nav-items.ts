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
  | "webhook"
  | "building";

/** Plain data so a server component can build the menu; `labelKey` is a message key. */
export type NavItem = {
  href: string;
  labelKey: string;
  icon: NavIconName;
  section?: "main" | "admin";
};
