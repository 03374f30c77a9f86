import type { Env } from "../env";
import { createPublisher } from "../events/publisher";
import type { Defer } from "../domain/shared/defer";
import type { EnqueueMassMessage, MassMessageJob } from "../domain/mass-messages/begin-mass-message";
import { deliverMassMessageBatch, MassMessageJobSchema } from "../domain/mass-messages/deliver-mass-message-batch";

/** The producer: the Worker's Queue binding (wrangler.toml `MASS_MESSAGES`). */
export const enqueueMassMessage =
  (env: Env): EnqueueMassMessage =>
  async (job) => {
    await env.MASS_MESSAGES.send(job);
  };

/** How long one queue message may keep writing batches before it hands the rest on as a new message. */
const MASS_MESSAGE_SLICE_MS = 5_000;

/**
 * A timer between batches. Where the database runs in the same workerd process as the Worker (`npm start`, the
 * e2e tier), one D1 answer follows another without the event loop ever waiting, and it only reads its sockets
 * when it waits: without this, every request (even /api/health) stalled until the whole mass message was
 * written. In production it costs a millisecond per batch of recipients.
 */
const yieldToIncomingRequests = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The consumer: each queue message writes batches of recipients (deliverMassMessageBatch) for up to
 * MASS_MESSAGE_SLICE_MS, then enqueues where it stopped as a new message, so a mass message to 10,000 fans is a
 * few bounded invocations, never one long one, and never 200 queue round trips. Each batch tells its recipients'
 * user channels through `publish` (waitUntil work of this invocation). A failing batch is retried by the Queue
 * (it is safe to run twice); a malformed body is acknowledged and dropped.
 */
export async function consumeMassMessages(batch: MessageBatch<unknown>, env: Env, defer: Defer): Promise<void> {
  const ctx = { db: env.DB, publish: createPublisher(env, defer) };
  for (const message of batch.messages) {
    const job = MassMessageJobSchema.safeParse(message.body);
    if (!job.success) {
      console.warn("mass-messages: dropped a malformed job", message.body);
      message.ack();
      continue;
    }
    try {
      const started = Date.now();
      let next: MassMessageJob | null = job.data;
      while (next && Date.now() - started < MASS_MESSAGE_SLICE_MS) {
        next = await deliverMassMessageBatch(ctx, next);
        await yieldToIncomingRequests();
      }
      if (next) await env.MASS_MESSAGES.send(next);
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ queue: "mass-messages", job: job.data, error: String(error) }));
      message.retry();
    }
  }
}
