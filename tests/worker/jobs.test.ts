import { env } from "cloudflare:test";
import { config } from "../../worker/env";
import { devMailbox } from "../../worker/dev/mailbox";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JOBS, runScheduledJobs } from "../../worker/jobs";
import type { Job } from "../../worker/jobs/job";

afterEach(() => vi.restoreAllMocks());

describe("the cron's jobs", () => {
  it("a job that throws is logged as failed and never keeps the next ones from running", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const ran: string[] = [];
    const job = (name: string, run: Job["run"]): Job => ({ name, run: async (ctx) => (ran.push(name), run(ctx)) });
    const outcomes = await runScheduledJobs(env, () => {}, devMailbox(env, config(env)), [
      job("first", async () => ({ done: 1 })),
      job("broken", async () => {
        throw new Error("D1 went away");
      }),
      job("last", async (ctx) => ({
        users: (await ctx.db.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>())!.n,
      })),
    ]);
    expect(ran).toEqual(["first", "broken", "last"]);
    expect(outcomes.map(({ job, ok }) => [job, ok])).toEqual([
      ["first", true],
      ["broken", false],
      ["last", true],
    ]);
    expect(outcomes[1]).toMatchObject({ ok: false, error: "D1 went away" });
    expect(outcomes[2]).toMatchObject({ ok: true, result: { users: 0 } });
  });

  it("every job runs on an empty database and reports what it did as one log line each", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const outcomes = await runScheduledJobs(env, () => {}, devMailbox(env, config(env)));
    expect(outcomes.map((outcome) => outcome.job)).toEqual(JOBS.map((job) => job.name));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(lines.map((line) => JSON.parse(line).cron.job)).toEqual(JOBS.map((job) => job.name));
    expect(new Set(JOBS.map((job) => job.name)).size).toBe(JOBS.length);
  });
});
