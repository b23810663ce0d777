/** The address of a page that works on one account: the account is in the URL, so a form submits to the account it shows. */
export function accountPath(accountId: string, path: string): string {
  return `/${encodeURIComponent(accountId)}${path}`;
}

/** The account named by an address made by `accountPath`, if any. */
export function accountInPath(pathname: string, accountIds: readonly string[]): string | null {
  let first: string;
  try {
    first = decodeURIComponent(pathname.split("/")[1] ?? "");
  } catch {
    return null; // a malformed escape names no account (the page itself answers not found)
  }
  return accountIds.includes(first) ? first : null;
}
