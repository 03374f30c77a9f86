import { fileURLToPath } from "node:url";
import { defineWorkersConfig, readD1Migrations } from "@cloudflare/vitest-pool-workers/config";
import { ALIASES } from "./aliases";

/** Worker integration tests: the API inside workerd with real D1, R2 and Durable Objects (tests/worker). */
export default defineWorkersConfig(async () => {
  const migrations = await readD1Migrations("worker/db/migrations");
  return {
    resolve: {
      alias: [
        ...Object.entries(ALIASES).map(([find, replacement]) => ({ find, replacement })),
        // tslib (under @simplewebauthn/server's ASN.1 parsers) as wrangler's bundle takes it, its ES module: the
        // test pool resolves it with the "node" condition, whose wrapper imports a default from a CommonJS file
        // that workerd's module loader does not give one.
        {
          find: /^tslib$/,
          replacement: fileURLToPath(new URL("./node_modules/tslib/tslib.es6.mjs", import.meta.url)),
        },
      ],
    },
    test: {
      include: ["tests/worker/**/*.test.ts"],
      setupFiles: ["tests/worker/setup.ts"],
      // A test makes dozens of requests, each through real D1 and R2: vitest's 5 s measures the machine's load
      // (two cores shared with the build and Chromium), not the code. Time itself is tested with a stopped clock.
      testTimeout: 30_000,
      poolOptions: {
        workers: {
          singleWorker: true,
          isolatedStorage: true,
          main: "./tests/worker/entry.ts",
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            bindings: {
              APP_ENV: "test",
              APP_SECRET: "test-secret-that-is-long-enough-0123456789",
              RATE_LIMIT_SCALE: "1",
              // Only the webhook's secret: without STRIPE_SECRET_KEY top-ups still use the sandbox.
              STRIPE_WEBHOOK_SECRET: "whsec_test_secret_for_worker_tests",
              // A fixed VAPID key pair for the tests only (tests/worker/push.test.ts verifies its signatures).
              VAPID_PUBLIC_KEY:
                "BEr0vtT4gsYQw6wA9_1OQp4pf-PfeHnKEV0tG56nQHGduhPz18o4Ovp8nYPAh4e6Hz17Ui0UWIwDWfc3f1V63OA",
              VAPID_PRIVATE_KEY: "eynCnUvpRSn1hJ1D-hymbfCue-1pmAFync1ON9x-oCw",
              VAPID_SUBJECT: "mailto:push-tests@example.com",
              // The fake push service tests/worker/push.test.ts answers for (its fetch is stubbed): the only host listed.
              PUSH_SERVICE_HOSTS: "push.example.test",
              TEST_MIGRATIONS: migrations,
              // Replays tests/worker/ledger-property.test.ts with the seed it printed.
              LEDGER_SEED: process.env.LEDGER_SEED ?? "",
            },
          },
        },
      },
    },
  };
});
