import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
/** Issue #42, "Thin pages": a function in app/ that grows past this is split into parts, its view logic moved to lib/. */
const MAX_LINES = 150;

type LongFunction = { file: string; name: string; lines: number };

function functionName(node: ts.Node, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) && node.name) {
    return node.name.getText(source);
  }
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return "(anonymous)";
}

/** Every function of `code` longer than `max` lines, counted from its first line to its last, both included. */
function longFunctions(file: string, code: string, max = MAX_LINES): LongFunction[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ file, name: functionName(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

describe("thin pages", () => {
  it("counts a function's lines from its first to its last, nested ones on their own", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
    // 1 line opening + 148 + 1 closing = 150 lines: allowed; one more line is not
    expect(longFunctions("a.ts", `function ok() {\n${body(148)}\n}\n`)).toEqual([]);
    expect(longFunctions("a.ts", `function tooLong() {\n${body(149)}\n}\n`)).toEqual([{ file: "a.ts", name: "tooLong", lines: 151 }]);
    expect(
      longFunctions(
        "a.tsx",
        `export const Page = () => (\n  <div>\n${body(149).replace(/const (v\d+) = \d+;/g, "<p>{$1}</p>")}\n  </div>\n);\n`,
      ),
    ).toEqual([{ file: "a.tsx", name: "Page", lines: 153 }]);
    // an outer function holding a long inner one is as long as its span
    expect(
      longFunctions("a.ts", `export function outer() {\n  return function inner() {\n${body(149)}\n  };\n}\n`).map((f) => f.name),
    ).toEqual(["outer", "inner"]);
    expect(longFunctions("a.ts", `class A {\n  method() {\n${body(149)}\n  }\n}\n`).map((f) => f.name)).toEqual(["method"]);
  });

  it(`no function in app/ runs over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(path.join(root, "app")).flatMap((file) =>
      longFunctions(path.relative(root, file), readFileSync(file, "utf8")),
    );
    expect(long).toEqual([]);
  });
});
