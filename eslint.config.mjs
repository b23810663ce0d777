import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Layers: app/ → components/ → lib/, never back; the sandbox and the console share only lib/br;
 * no import circles. Tests and scripts may reach across (they start a sandbox beside the console).
 */
const layerZones = [
  { target: "./lib", from: ["./app", "./components"], message: "lib/ is the bottom layer: it never imports app/ or components/." },
  { target: "./components", from: "./app", message: "components/ never imports app/: pass what it needs as props." },
  {
    target: ["./app", "./components", "./lib"],
    from: "./sandbox",
    message: "The console does not depend on the sandbox's code: talk to it over HTTP.",
  },
  { target: "./sandbox", from: ["./app", "./components"], message: "The sandbox is its own room." },
  {
    target: "./sandbox",
    from: "./lib",
    except: ["./br"],
    message: "The sandbox shares only lib/br with the console: its contract is the seed, not the console's schemas.",
  },
];
const testsAndHarness = ["**/__tests__/**", "sandbox/tests/**", "lib/testing/**"];
const layers = {
  files: ["app/**", "components/**", "lib/**", "sandbox/**", "proxy.ts", "instrumentation.ts"],
  ignores: testsAndHarness,
  rules: { "import/no-restricted-paths": ["error", { zones: layerZones }] },
};

/**
 * Layers inside lib/, lowest first (docs/architecture.md, "Rooms"). A folder (or top-level
 * file) of lib/ imports only from rows below its own: never from a row above, nor from a
 * neighbour on its own row. A new folder of lib/ takes a row here (a test checks that each has one).
 */
const LIB_LAYERS = [
  ["br"],
  ["env.ts", "utils.ts", "locale.ts", "security-headers.mjs"],
  ["log"],
  ["crypto", "http", "backup", "runtime"],
  ["db"],
  ["status"],
  ["audit"],
  ["users"],
  ["accounts"],
  ["gateway", "auth"],
  ["i18n"],
  ["feed"],
  ["destinations"],
  ["submissions"],
  ["ledger"],
  ["subscriptions"],
  ["charges", "checkout-links", "refunds", "transfers"],
  ["payout-batches"],
  ["notifications"],
  ["background"],
  ["overview", "producer", "sales", "transactions"],
  ["balance"],
  ["actions"],
  ["shell"],
  ["bootstrap.ts", "testing"],
];
const libZones = LIB_LAYERS.flatMap((row, level) => {
  const aboveOrBeside = LIB_LAYERS.slice(level).flat();
  return row.map((name) => ({
    target: `./lib/${name}`,
    from: aboveOrBeside.filter((other) => other !== name).map((other) => `./lib/${other}`),
    message: `lib/${name} sits below these in the layers inside lib (docs/architecture.md): it imports only from rows below its own.`,
  }));
});
const libLayers = {
  files: ["lib/**"],
  ignores: testsAndHarness,
  rules: { "import/no-restricted-paths": ["error", { zones: [...layerZones, ...libZones] }] },
};

/**
 * Circles: searched from lib/ and the sandbox, the layers everything else stands on (a circle
 * through app/ or components/ would need lib/ to import them, which the zones above refuse).
 * Searching from app/ too would multiply the lint time by ten.
 */
const noCircles = {
  files: ["lib/**", "sandbox/**"],
  ignores: ["**/__tests__/**", "sandbox/tests/**", "lib/testing/**"],
  settings: { "import/ignore": ["node_modules"] },
  rules: { "import/no-cycle": ["error", { ignoreExternal: true, maxDepth: 8 }] },
};

const config = [
  ...nextVitals,
  ...nextTs,
  layers,
  libLayers,
  noCircles,
  // Playwright fixtures receive a function named `use`, which is not React's.
  { files: ["e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  { ignores: ["**/.next/**", ".next-*/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
];

export default config;
