import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import type { CompiledDictionary, CompiledMessage } from "./compiled";

function compileMessage(template: string): CompiledMessage {
  if (!template.includes("{")) return template;
  let elements: ReturnType<typeof parse>;
  try {
    elements = parse(template);
  } catch {
    return template;
  }
  // Plain `{name}` placeholders travel as text (the browser fills them in); only plurals and
  // selects travel parsed, so the page stays small and the ICU parser stays on the server.
  return elements.every((element) => element.type === TYPE.literal || element.type === TYPE.argument) ? template : elements;
}

export function compileDictionary(node: Record<string, unknown>): CompiledDictionary {
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      typeof value === "string" ? compileMessage(value) : compileDictionary(value as Record<string, unknown>),
    ]),
  );
}
