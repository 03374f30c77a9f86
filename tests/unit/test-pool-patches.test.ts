import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// scripts/patch-vitest-pool-workers.mjs patches the worker tier's pool in three files; a stale install (patched
// before a patch existed) would run the tier without it: slower (the entrypoint's proxies) or failing now and then
// (sidecars, loopback). Read from this repository's node_modules, as the script writes them.
const file = (relative: string) => readFileSync(fileURLToPath(new URL(`../../node_modules/@cloudflare/vitest-pool-workers/${relative}`, import.meta.url)), "utf8");

describe("the worker tier's pool", () => {
  it("carries the three patches of scripts/patch-vitest-pool-workers.mjs", () => {
    expect(file("dist/pool/index.mjs")).toContain("SQLite sidecars tolerated (scripts/patch-vitest-pool-workers.mjs)");
    expect(file("node_modules/miniflare/dist/src/index.js")).toContain("loopback keep-alive (scripts/patch-vitest-pool-workers.mjs)");
    const runner = file("dist/worker/lib/cloudflare/test-internal.mjs");
    expect(runner).toContain("entrypoint prototype proxied once (scripts/patch-vitest-pool-workers.mjs)");
    // The wrapper class proxies its prototype on its first construction only.
    expect(runner).toMatch(/if \(!proxied\) proxied = true, Class\.prototype = new Proxy\(Class\.prototype/);
  });
});
