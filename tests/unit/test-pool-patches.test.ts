import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// scripts/patch-vitest-pool-workers.mjs fixes three bugs of the worker tier's pool that upstream fixed only in releases
// for vitest 4 and miniflare 4 (cloudflare/workers-sdk#11031, #14848, #15092). Read from this repository's node_modules, as
// the script writes them.
const file = (relative: string) =>
  readFileSync(
    fileURLToPath(new URL(`../../node_modules/@cloudflare/vitest-pool-workers/${relative}`, import.meta.url)),
    "utf8",
  );
const version = (relative: string) => (JSON.parse(file(relative)) as { version: string }).version;

describe("the worker tier's pool", () => {
  // Another version may carry the fix, or the patched code in another shape: review the patch, then this line.
  it("is the version the patches were written for", () => {
    expect(version("package.json")).toBe("0.7.8");
    expect(version("node_modules/miniflare/package.json")).toBe("3.20250310.0");
  });

  it("carries the patches of scripts/patch-vitest-pool-workers.mjs", () => {
    const pool = file("dist/pool/index.mjs");
    expect(pool).toContain("SQLite sidecars tolerated (scripts/patch-vitest-pool-workers.mjs)");
    // Upstream's assertion is gone from both loops: a sidecar no longer stops the run.
    expect(pool).not.toContain('assert2(name.endsWith(".sqlite"), `Expected .sqlite');
    expect(file("node_modules/miniflare/dist/src/index.js")).toContain(
      "createServer(this.#handleLoopback), { keepAliveTimeout: 0 })",
    );
    // The entrypoint's class proxies its prototype on its first construction only.
    expect(file("dist/worker/lib/cloudflare/test-internal.mjs")).toMatch(
      /if \(!proxied\) proxied = true, Class\.prototype = new Proxy\(Class\.prototype/,
    );
  });
});
