import { applyD1Migrations, env } from "cloudflare:test";
import { afterEach } from "vitest";
import { setClockForTests } from "@shared/clock";

// Runs before each test file; with isolated storage every test starts from this migrated state.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// A test that stopped the clock (tests/worker/clock.ts) never leaves it stopped for the next one.
afterEach(() => setClockForTests(env, null));
