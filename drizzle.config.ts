import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/tables/*.ts",
  out: "./lib/db/migrations",
});
