import type { D1Migration } from "@cloudflare/vitest-pool-workers/config";
import type { Env } from "../../worker/env";

declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
    /** A seed for tests/worker/ledger-property.test.ts (empty: a random one). */
    LEDGER_SEED: string;
  }
}
