/** Shared with browser code, so it must not import the database driver. */
export const ROLES = ["admin", "operator", "producer", "viewer"] as const;
export type Role = (typeof ROLES)[number];
