import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  // Playwright fixtures receive a function named `use`, which is not React's.
  { files: ["e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  { ignores: [".next/**", ".next-*/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
];

export default config;
