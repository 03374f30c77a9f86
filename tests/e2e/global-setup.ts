import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { TestProject } from "vitest/node";

const STATE_DIR = "tests/e2e/.artifacts/state";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url: string, server: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited early:\n${log()}`);
    try {
      if ((await fetch(`${url}/api/openapi.json`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer within 60 s:\n${log()}`);
}

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  rmSync(STATE_DIR, { recursive: true, force: true });
  mkdirSync(STATE_DIR, { recursive: true });
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };
  const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE_DIR], { env, encoding: "utf8" });
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  let output = "";
  const server = spawn(
    "npx",
    [
      "wrangler", "dev", "--port", String(port), "--ip", "localhost", "--persist-to", STATE_DIR,
      "--var", "APP_ENV:development", "--var", "MAIL_DRIVER:dev",
      "--var", "APP_SECRET:e2e-secret-that-is-long-enough-0123456789",
      // Every request comes from one address here; the limits themselves are tested in tests/worker.
      "--var", "RATE_LIMIT_SCALE:100",
    ],
    { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  await waitUntilServing(baseURL, server, () => output);
  project.provide("baseURL", baseURL);

  return () => {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  };
}
