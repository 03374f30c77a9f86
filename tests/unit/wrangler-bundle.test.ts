import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

// scripts/patch-wrangler-bundle.mjs turns esbuild's keepNames off in wrangler's bundler (`wrangler dev` and
// `wrangler deploy`): no `__name(...)` call around every function the Worker creates.
const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve("wrangler/package.json")), "wrangler-dist", "cli.js");

describe("wrangler's bundler", () => {
  it("bundles the Worker without keepNames", () => {
    const source = readFileSync(cli, "utf8");
    expect(source).toContain("keepNames off (scripts/patch-wrangler-bundle.mjs)");
    expect(source).not.toMatch(/keepNames: true/);
  });
});
