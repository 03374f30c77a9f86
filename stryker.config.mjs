import process from "node:process";

/**
 * Mutation testing (QUALITY.md: a mutation score of at least 85% on money rules, access rules and parsers):
 * StrykerJS changes one operator, condition or literal of these pure modules at a time and runs the unit tests
 * (tests/unit, through vitest.unit.config.ts) against each change; a change no test notices survives. Run with
 * `npm run test:mutation`; it is not part of `npm test` (minutes of CPU). The Worker modules that talk to D1
 * are tested in workerd (tests/worker) and are not mutated here.
 */
// Vitest runs Stryker's tests in worker threads, where setting process.env.TZ (tests/unit/posts-values.test.ts)
// has no effect: the test runners start in that zone instead, which the other unit tests do not mind.
process.env.TZ = "Asia/Kolkata";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.unit.config.ts" },
  coverageAnalysis: "perTest",
  mutate: [
    "shared/money.ts",
    "worker/domain/money/rules.ts",
    "worker/domain/money/providers/stripe-signature.ts",
    "worker/domain/subscriptions/periods.ts",
    "worker/domain/subscriptions/plans-form.ts",
    "worker/domain/posts/access.ts",
    // The account fields' rules and the sign-up, sign-in and new-password bodies built from them; the other
    // bodies after them (password change, email links) are tested in workerd.
    "shared/contracts/accounts.ts:1-186",
    "app/components/posts/post-values.ts",
  ],
  // The machine is shared: one test process at a time.
  concurrency: 1,
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 85, break: 85 },
  reporters: ["clear-text", "progress", "html"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
