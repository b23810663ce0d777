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
  | "send"
  | "building";

/** Plain data so a server component can build the menu, its labels already in the user's language. */
export type NavItem = {
  href: string;
  label: string;
  icon: NavIconName;
  section?: "main" | "admin";
};
