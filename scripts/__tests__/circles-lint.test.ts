import path from "node:path";
import { ESLint } from "eslint";
import { expect, it } from "vitest";

// A file of its own: the import plugin caches every file's imports for the life of the process.
const root = path.resolve(__dirname, "../..");

it("lint refuses an import circle", async () => {
  // lib/status/ledger.ts imports lib/status/machine.ts: importing it back closes a circle.
  const [result] = await new ESLint({ cwd: root }).lintText(
    `import { ledgerStatusChange } from "./ledger";\nexport const x = ledgerStatusChange;\n`,
    {
      filePath: path.join(root, "lib/status/machine.ts"),
    },
  );
  expect(result.messages.map((m) => m.ruleId)).toContain("import/no-cycle");
});
