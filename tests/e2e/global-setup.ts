import type { TestProject } from "vitest/node";
import { startDevServer } from "../support/dev-server.mjs";

/** The local D1/R2/DO state of the end-to-end server (tests/e2e/support.ts reads it with `sql`). */
export const E2E_STATE_DIR = "tests/e2e/.artifacts/state";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startDevServer({ stateDir: E2E_STATE_DIR });
  project.provide("baseURL", server.baseURL);
  return () => server.stop();
}
