/** Every message of a dictionary as [dotted key, template]. */
export function messageLeaves(node: unknown, prefix = ""): [string, string][] {
  if (typeof node === "string") return [[prefix, node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => messageLeaves(value, prefix ? `${prefix}.${key}` : key));
}
