import { defineConfig } from "vitest/config";
import { ALIASES } from "./aliases";

/**
 * End-to-end: Chromium (Debian's, driven by playwright-core) against the production build served by the local
 * server (scripts/serve.mjs) on a free port with its own fresh local state (tests/e2e/global-setup.ts).
 */
export default defineConfig({
  resolve: { alias: ALIASES },
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits as every other wait does (at most 30 s, tests/e2e/support.ts `within`): its own default,
    // one second, is a bet on the machine's speed that a busy machine loses.
    expect: { poll: { timeout: 30_000 } },
    // One server, two cores: files run one after another, tests inside a file in order.
    fileParallelism: false,
    // In one process whose modules stay loaded (playwright-core, Miniflare, the support code): re-importing them
    // for every file cost about a second each. Each file still launches its own browser and makes its own people.
    isolate: false,
  },
});
