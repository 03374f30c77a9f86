import { defineConfig } from "vitest/config";
import { ALIASES } from "./aliases";

/** Pure logic, in Node: no Worker runtime, no database. */
export default defineConfig({
  resolve: { alias: ALIASES },
  test: { include: ["tests/unit/**/*.test.ts"], environment: "node" },
});
