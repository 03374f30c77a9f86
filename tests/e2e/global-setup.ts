import type { TestProject } from "vitest/node";
import { startDevServer } from "../support/dev-server.mjs";

/** The local D1/R2/DO state of the end-to-end server (tests/e2e/support.ts reads it with `sql`). */
export const E2E_STATE_DIR = "tests/e2e/.artifacts/state";
/** What the end-to-end server prints (one line per request); a failing test shows its tail. */
export const E2E_SERVER_LOG = "test-results/e2e/server.log";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  // The tests change users behind the app's back (`sql`: a role, a verified email) and then read a page at once:
  // the server must not answer from a session copy read seconds before (worker tests cover the cache itself).
  const server = await startDevServer({
    stateDir: E2E_STATE_DIR,
    logFile: E2E_SERVER_LOG,
    vars: { SESSION_CACHE_SECONDS: "0" },
  });
  project.provide("baseURL", server.baseURL);
  return () => server.stop();
}
