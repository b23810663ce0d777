import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** Lints `code` in place of the existing file `file` (nothing is written): the rules of lib/'s layers must fire on it. */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === "import/no-restricted-paths").map((m) => `${m.ruleId}: ${m.message}`);
}

describe("lint refuses a back import between the folders of lib/", () => {
  it("a low folder importing a higher one", async () => {
    // lib/db under lib/auth: the database knows nothing of sessions
    expect(
      await problems("lib/db/client.ts", `import { getSessionUser } from "@/lib/auth/session";\nexport const x = getSessionUser;\n`),
    ).toEqual([expect.stringContaining("lib/db sits below")]);
    // the circle this rule was written after: the logger reaching into the gateway, by a relative path
    expect(
      await problems("lib/log/index.ts", `import { consoleLogger } from "../gateway/log";\nexport const x = consoleLogger;\n`),
    ).toEqual([expect.stringContaining("lib/log sits below")]);
    // and users reaching up into auth, type-only imports included
    expect(
      await problems("lib/users/queries.ts", `import type { SessionUser } from "@/lib/auth/session";\nexport type X = SessionUser;\n`),
    ).toEqual([expect.stringContaining("lib/users sits below")]);
  });

  it("a folder importing its neighbour on the same row", async () => {
    expect(
      await problems("lib/gateway/connection.ts", `import { roleCan } from "@/lib/auth/permissions";\nexport const x = roleCan;\n`),
    ).toEqual([expect.stringContaining("lib/gateway sits below")]);
  });

  it("lets imports downward through, and keeps the rules between top-level layers", async () => {
    expect(
      await problems(
        "lib/auth/options.ts",
        `import { findUserById } from "@/lib/users/queries";\nimport { createLogger } from "@/lib/log";\nexport const x = [findUserById, createLogger];\n`,
      ),
    ).toEqual([]);
    expect(await problems("lib/shell/nav.ts", `import { getDb } from "@/lib/db/client";\nexport const x = getDb;\n`)).toEqual([]);
    expect(
      await problems("lib/db/client.ts", `import { AppShell } from "@/components/shell/app-shell";\nexport const x = AppShell;\n`),
    ).toEqual([expect.stringContaining("lib/ is the bottom layer")]);
  });

  it("gives every folder and top-level file of lib/ a row", async () => {
    const config: { rules: Record<string, [unknown, { zones: { target: string | string[] }[] }]> } = await eslint.calculateConfigForFile(
      path.join(root, "lib/db/client.ts"),
    );
    const targets = config.rules["import/no-restricted-paths"][1].zones.flatMap((zone) => zone.target);
    const placed = new Set(targets.filter((target) => target.startsWith("./lib/")).map((target) => target.slice("./lib/".length)));
    const lib = path.join(root, "lib");
    // an emptied folder left behind by a move is not in a clone: only entries holding files count
    const holdsFiles = (name: string) => !statSync(path.join(lib, name)).isDirectory() || readdirSync(path.join(lib, name)).length > 0;
    const entries = readdirSync(lib).filter((name) => name !== "__tests__" && !name.endsWith(".d.mts") && holdsFiles(name));
    expect(entries.filter((name) => !placed.has(name))).toEqual([]);
    expect([...placed].filter((name) => !entries.includes(name))).toEqual([]);
  });
});
