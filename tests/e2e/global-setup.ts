import type { TestProject } from "vitest/node";
import { startDevServer } from "../support/dev-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startDevServer({ stateDir: "tests/e2e/.artifacts/state" });
  project.provide("baseURL", server.baseURL);
  return () => server.stop();
}
