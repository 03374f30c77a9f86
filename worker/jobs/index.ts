import type { Env } from "../env";
import { createPublisher } from "../events/publisher";
import type { Defer } from "../domain/shared/defer";
import type { Mailer } from "../domain/mail/mailer";
import { completeStreamUploads } from "./complete-stream-uploads";
import { deleteAccounts } from "./delete-accounts";
import { deleteExpiredDataExports } from "./delete-expired-data-exports";
import { discardAbandonedUploads } from "./discard-abandoned-uploads";
import { expireSandboxTopUps } from "./expire-sandbox-top-ups";
import { expireStories } from "./expire-stories";
import type { Job, JobContext } from "./job";
import { publishScheduledPosts } from "./publish-scheduled-posts";
import { releaseEarnings } from "./release-earnings";
import { renewSubscriptions } from "./renew-subscriptions";
import { sendWelcomeMessages } from "./send-welcome-messages";
import { startScheduledMassMessages } from "./start-due-mass-messages";
import { sweepExpiredRecords } from "./sweep-expired-records";

/** Every job of the cron trigger, in the order they run. A new job is a module here and a line in this list. */
export const JOBS: readonly Job[] = [
  publishScheduledPosts,
  startScheduledMassMessages,
  renewSubscriptions,
  sendWelcomeMessages,
  releaseEarnings,
  expireSandboxTopUps,
  expireStories,
  completeStreamUploads,
  discardAbandonedUploads,
  deleteAccounts,
  sweepExpiredRecords,
  deleteExpiredDataExports,
];

export type JobOutcome = { job: string; ms: number } & (
  { ok: true; result: Record<string, number> } | { ok: false; error: string }
);

/**
 * One cron run: every job runs on its own, one after another, and is logged as one JSON line. A job that throws
 * is logged as failed and the next one runs anyway; it is retried by the next run, a minute later.
 */
export async function runScheduledJobs(
  env: Env,
  defer: Defer,
  mailer: Mailer,
  jobs: readonly Job[] = JOBS,
): Promise<JobOutcome[]> {
  const ctx: JobContext = { env, db: env.DB, defer, publish: createPublisher(env, defer), mailer };
  const outcomes: JobOutcome[] = [];
  for (const job of jobs) {
    const started = Date.now();
    let outcome: JobOutcome;
    try {
      outcome = { job: job.name, ok: true, result: await job.run(ctx), ms: Date.now() - started };
      console.log(JSON.stringify({ cron: outcome }));
    } catch (error) {
      outcome = {
        job: job.name,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        ms: Date.now() - started,
      };
      console.error(JSON.stringify({ cron: outcome }), error);
    }
    outcomes.push(outcome);
  }
  return outcomes;
}
