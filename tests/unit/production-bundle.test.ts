import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Code that only a local run (worker/dev) or the benchmark (tests/bench/worker) may hold, each found by a text its
 * code cannot work without, and the file that holds it there: if a file stops holding its text, the check of the
 * production bundle would look for nothing, so that fails too.
 */
const LOCAL_ONLY = [
  { what: "the benchmark's routes", text: "/__bench/", file: "tests/bench/worker/count-d1.ts" },
  { what: "the development mailbox (its table)", text: "dev_mailbox", file: "worker/dev/mailbox.ts" },
  { what: "the local run's cron route", text: "/__scheduled", file: "worker/dev/local-run.ts" },
];

const BUILD_MS = 240_000;
let productionBundle = "";

beforeAll(() => {
  if (!existsSync("build/server/index.js"))
    throw new Error("The production Worker bundles the Remix build: run `npm run build` first.");
  const outdir = mkdtempSync(join(tmpdir(), "fanclub-bundle-"));
  try {
    // What `wrangler deploy` would upload: wrangler.toml's main (worker/index.ts), bundled, not sent anywhere.
    execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir], {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: "pipe",
      timeout: BUILD_MS - 10_000,
    });
    productionBundle = readFileSync(join(outdir, "index.js"), "utf8");
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}, BUILD_MS);

describe("the production Worker's bundle (wrangler deploy --dry-run)", () => {
  it("is the Worker that sends mail through Resend and renders the pages", () => {
    expect(productionBundle).toContain("https://api.resend.com/emails");
    expect(productionBundle).toContain('"routes/email.verify._index"');
  });

  it.each(LOCAL_ONLY)("holds none of $what", ({ text, file }) => {
    expect(
      readFileSync(file, "utf8"),
      `${file} no longer holds ${JSON.stringify(text)}: say what marks its code now`,
    ).toContain(text);
    expect(productionBundle.includes(text), `${JSON.stringify(text)} is in the production bundle`).toBe(false);
  });
});
