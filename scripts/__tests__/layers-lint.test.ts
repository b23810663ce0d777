import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** Lints `code` in place of the existing file `file` (nothing is written): the layer rules must fire on it. */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId?.startsWith("import/")).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("lint refuses imports that run against the layers", () => {
  it("lib/ importing components/ or app/", async () => {
    expect(
      await problems("lib/shell/nav.ts", `import { AppShell } from "@/components/shell/app-shell";\nexport const x = AppShell;\n`),
    ).toEqual([expect.stringContaining("import/no-restricted-paths")]);
    expect(
      await problems(
        "lib/charges/requests.ts",
        `import { createPixChargeAction } from "@/app/(dashboard)/[account]/charges/actions";\nexport const x = createPixChargeAction;\n`,
      ),
    ).toEqual([expect.stringContaining("import/no-restricted-paths")]);
  });

  it("components/ importing app/, and the console importing the sandbox", async () => {
    expect(
      await problems(
        "components/payments/account-banner.tsx",
        `import { requestRefundAction } from "@/app/(dashboard)/[account]/refunds/actions";\nexport const x = requestRefundAction;\n`,
      ),
    ).toEqual([expect.stringContaining("import/no-restricted-paths")]);
    expect(
      await problems("lib/notifications/http.ts", `import { startSandbox } from "@/sandbox/app";\nexport const x = startSandbox;\n`),
    ).toEqual([expect.stringContaining("import/no-restricted-paths")]);
  });

  it("the sandbox importing anything of the console but lib/br", async () => {
    expect(await problems("sandbox/routes/html.ts", `import { getDb } from "../../lib/db/client";\nexport const x = getDb;\n`)).toEqual([
      expect.stringContaining("import/no-restricted-paths"),
    ]);
    expect(
      await problems("sandbox/routes/html.ts", `import { isValidCpf } from "../../lib/br/cpf";\nexport const x = isValidCpf;\n`),
    ).toEqual([]);
  });

  it("and lets the layers' own direction through", async () => {
    expect(
      await problems(
        "components/payments/account-banner.tsx",
        `import { accountPath } from "@/lib/accounts/paths";\nexport const x = accountPath;\n`,
      ),
    ).toEqual([]);
  });
});
