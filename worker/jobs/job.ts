import type { EffectsContext } from "../domain/context";
import type { Mailer } from "../domain/mail/mailer";

/** What a job gets: the bindings, `publish`/`defer` bound to the cron run's waitUntil, and how mail goes out. */
export type JobContext = EffectsContext & { mailer: Mailer };

/**
 * One piece of the cron's work (wrangler.toml [triggers], every minute). Each job is idempotent, so a retried
 * or overlapping run is harmless, and answers a small summary of what it did, for the log.
 */
export interface Job {
  name: string;
  run(ctx: JobContext): Promise<Record<string, number>>;
}
