import type { Env } from "../env";
import type { Mailer } from "../domain/mail/mailer";
import { buildDataExport, failDataExport } from "../domain/data-exports/build-data-export";
import { DataExportJobSchema, type EnqueueDataExport } from "../domain/data-exports/jobs";

/** The Queue's name (wrangler.toml): the Worker's queue handler tells it from the others by it. */
export const DATA_EXPORTS_QUEUE = "fanclub-data-exports";

/** wrangler.toml's max_retries for this queue: the delivery after the last retry is the last chance. */
const MAX_RETRIES = 3;
/** A failure is most likely R2 or D1 being briefly unavailable: worth a new try a little later. */
const RETRY_DELAY_SECONDS = 60;

/** The producer: the Worker's Queue binding (wrangler.toml `DATA_EXPORTS`). */
export const enqueueDataExport =
  (env: Env): EnqueueDataExport =>
  async (job) => {
    await env.DATA_EXPORTS.send(job);
  };

/**
 * The consumer: each message builds one export (buildDataExport), acknowledged once built or found built already.
 * A failure is retried; the last one fails the export, so that the person sees it and may ask again. A malformed
 * body is acknowledged and dropped.
 */
export async function consumeDataExports(batch: MessageBatch<unknown>, env: Env, mailer: Mailer): Promise<void> {
  for (const message of batch.messages) {
    const job = DataExportJobSchema.safeParse(message.body);
    if (!job.success) {
      console.warn(JSON.stringify({ queue: DATA_EXPORTS_QUEUE, dropped: message.body }));
      message.ack();
      continue;
    }
    const { exportId } = job.data;
    try {
      const outcome = await buildDataExport(env, mailer, job.data);
      console.log(JSON.stringify({ queue: DATA_EXPORTS_QUEUE, exportId, outcome }));
      message.ack();
    } catch (error) {
      console.error(
        JSON.stringify({ queue: DATA_EXPORTS_QUEUE, exportId, attempts: message.attempts, error: String(error) }),
      );
      if (message.attempts <= MAX_RETRIES) {
        message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
        continue;
      }
      await failDataExport(env, exportId).catch((failure: unknown) =>
        console.error(JSON.stringify({ queue: DATA_EXPORTS_QUEUE, exportId, failing: String(failure) })),
      );
      message.ack();
    }
  }
}
