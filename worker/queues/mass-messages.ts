import type { Env } from "../env";
import { deliverMassMessageBatch, MassMessageJobSchema, type EnqueueMassMessage, type MassMessageJob } from "../domain/messages/mass-messages";
import type { Defer } from "../domain/shared/defer";
import { createPublisher } from "../events/publisher";

/** The producer: the Worker's Queue binding (wrangler.toml `MASS_MESSAGES`). */
export const enqueueMassMessage =
  (env: Env): EnqueueMassMessage =>
  async (job) => {
    await env.MASS_MESSAGES.send(job);
  };

/**
 * The consumer: each queue message is one batch of recipients (deliverMassMessageBatch); the next batch is
 * enqueued as a new message, so a mass message to 10,000 fans is 200 short invocations, never one long one. A
 * failing batch is retried by the Queue (it is safe to run twice); a malformed body is acknowledged and dropped.
 */
export async function consumeMassMessages(batch: MessageBatch<unknown>, env: Env, defer: Defer): Promise<void> {
  const publish = createPublisher(env, defer);
  for (const message of batch.messages) {
    const job = MassMessageJobSchema.safeParse(message.body);
    if (!job.success) {
      console.warn("mass-messages: dropped a malformed job", message.body);
      message.ack();
      continue;
    }
    try {
      const next: MassMessageJob | null = await deliverMassMessageBatch({ db: env.DB, publish }, job.data);
      if (next) await env.MASS_MESSAGES.send(next);
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ queue: "mass-messages", job: job.data, error: String(error) }));
      message.retry();
    }
  }
}
