import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });

describe("the lowered password cost", () => {
  it("is set by the worker tier's entry only, never by code that production or the e2e server runs", () => {
    const callers = ["worker", "app", "shared", "scripts", "tests"]
      .flatMap(filesUnder)
      .filter((path) => path !== join("worker", "domain", "auth", "password.ts") && path !== join("tests", "unit", "password-cost.test.ts"))
      .filter((path) => readFileSync(path, "utf8").includes("setPasswordHashCostForTests"));
    expect(callers).toEqual([join("tests", "worker", "entry.ts")]);
  });
});
