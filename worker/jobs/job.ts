import type { EffectsContext } from "../domain/context";

/** What a job gets: the bindings, and `publish`/`defer` bound to the cron run's waitUntil. */
export type JobContext = EffectsContext;

/**
 * One piece of the cron's work (wrangler.toml [triggers], every minute). Each job is idempotent, so a retried
 * or overlapping run is harmless, and answers a small summary of what it did, for the log.
 */
export interface Job {
  name: string;
  run(ctx: JobContext): Promise<Record<string, number>>;
}
