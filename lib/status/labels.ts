import { MACHINES, stateOf, type MachineKind, type StatusMachine } from "./machine";

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** A status in words (`status.<kind>.<state>`); a spelling the console does not know stays verbatim, marked as the gateway's. */
export function statusLabel(
  t: Translate,
  has: (key: string) => boolean,
  kind: MachineKind,
  status: string,
): { label: string; state: string | null; known: boolean } {
  const state = stateOf(MACHINES[kind] as StatusMachine<string>, status);
  const key = `status.${kind}.${state}`;
  const known = state !== null && state !== "unknown" && has(key);
  // A spelling no table knows is shown as it came, marked as the gateway's (the badge puts the code in its own element).
  return { label: known ? t(key) : has("vocab.fromGateway") ? t("vocab.fromGateway", { code: status }) : status, state, known };
}
