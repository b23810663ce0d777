/** What a dotted key names in a tree of areas (raw or compiled): a leaf, a branch or nothing. */
export function valueAt(tree: object, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split(".")) {
    if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
