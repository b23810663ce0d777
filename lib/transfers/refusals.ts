/** Refused fields the console explains in the user's words, whatever language the gateway answers in. */
const EXPLAINED_FIELDS: Record<string, string> = {
  "owner.ip": "ownerIp",
  "pix.key": "pixKey",
  "pix.type": "pixKey",
  "owner.document.number": "ownerDocument",
  "owner.document.type": "ownerDocument",
  "owner.name": "ownerName",
  amount: "amount",
};

/**
 * `transfers.errors.refused.<field>` when the refusal names one field the console can explain
 * (the gateway's text then travels as `message`, shown as secondary text), else null.
 */
export function explainedRefusal(message: string | undefined, issues?: { path: string }[]): string | null {
  const fields = new Set([...(message?.matchAll(/(?:^|;\s*)([A-Za-z][\w.]*):/g) ?? [])].map((m) => m[1]));
  for (const issue of issues ?? []) fields.add(issue.path);
  const explained = new Set<string | null>([...fields].map((field) => EXPLAINED_FIELDS[field] ?? null));
  const [only] = explained;
  return explained.size === 1 && only ? `transfers.errors.refused.${only}` : null;
}
