import { createApp } from "../../worker/app";
import { devMailbox } from "../../worker/dev/mailbox";
import { checkAnswer } from "./answer-check";
import { runScheduledJobs } from "../../worker/jobs";
import { config, type Env } from "../../worker/env";
import type { MassMessageJob } from "../../worker/domain/mass-messages/begin-mass-message";
import type { PushJob } from "../../worker/domain/push/jobs";
import { consumePush, PUSH_QUEUE } from "../../worker/push/queue";
import { consumeMassMessages } from "../../worker/queues/mass-messages";
import { consumeDataExports, DATA_EXPORTS_QUEUE } from "../../worker/queues/data-exports";
import type { DataExportJob } from "../../worker/domain/data-exports/jobs";
import { within } from "./waits";

/** vitest-pool-workers runs the Durable Objects of wrangler.toml from this module. */
export * from "../../worker/durable-objects";

/**
 * The Worker as production runs it, minus the Remix server build (pages are covered by the e2e tier), with a local
 * run's mail: each message is a row of dev_mailbox that the tests read.
 */
const app = createApp(null, { mailer: devMailbox });

/**
 * Work a route hands to `waitUntil` (fan-out, object deletion) finishes before the answer reaches the test:
 * otherwise it would outlive the test and touch storage that the next test's isolation has already reset.
 * Every JSON answer of the API is checked against the OpenAPI document on its way (./answer-check.ts).
 */
async function fetchAndSettle(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const pending: Promise<unknown>[] = [];
  const settlingContext: ExecutionContext = {
    props: ctx.props,
    waitUntil: (work) => void pending.push(work),
    passThroughOnException: () => ctx.passThroughOnException(),
  };
  const response = await app.fetch(
    request,
    withInlineQueue(env, (work) => void pending.push(work)),
    settlingContext,
  );
  const { pathname } = new URL(request.url);
  while (pending.length > 0)
    await within(Promise.allSettled(pending.splice(0)), `the work ${request.method} ${pathname} left to waitUntil`);
  await checkAnswer(request, response);
  return response;
}

/** A cron run whose deliveries have all finished when it resolves, for the same reason. */
export async function runScheduledJobsAndSettle(env: Env) {
  const pending: Promise<unknown>[] = [];
  const defer = (work: Promise<unknown>) => void pending.push(work);
  const outcomes = await runScheduledJobs(withInlineQueue(env, defer), defer, devMailbox(env, config(env)));
  while (pending.length > 0) await within(Promise.allSettled(pending.splice(0)), "the deliveries of the cron run");
  return outcomes;
}

/**
 * The Queues (mass messages, web push, data exports), drained inline: what the Worker sends is consumed by the real
 * consumer (consumeMassMessages, consumePush, consumeDataExports) as waitUntil work of the same request, batch after batch, so it has
 * finished when the answer reaches the test, inside the test's isolated storage. (A real queue would deliver
 * after the test.) A retry is not redelivered here: tests/worker/push.test.ts calls the consumer itself to see
 * one. The queues themselves run under `npm start` and in the e2e tier.
 */
export function withInlineQueue(env: Env, defer: (work: Promise<unknown>) => void): Env {
  const inline: Env = { ...env };
  let sequence = 0;
  const batchOf = (queue: string, bodies: unknown[]): MessageBatch<unknown> => {
    const messages = bodies.map((body): Message<unknown> => ({
      id: `inline-${++sequence}`,
      timestamp: new Date(),
      body,
      attempts: 1,
      ack: () => {},
      retry: () => {},
    }));
    return { queue, messages, ackAll: () => {}, retryAll: () => {} };
  };
  inline.MASS_MESSAGES = {
    send: async (job: MassMessageJob) =>
      defer(consumeMassMessages(batchOf("fanclub-mass-messages", [job]), inline, defer)),
    sendBatch: async (jobs: Iterable<MessageSendRequest<MassMessageJob>>) => {
      for (const { body } of jobs) defer(consumeMassMessages(batchOf("fanclub-mass-messages", [body]), inline, defer));
    },
  } as unknown as Queue<MassMessageJob>;
  inline.PUSH = {
    send: async (job: PushJob) => defer(consumePush(batchOf(PUSH_QUEUE, [job]), inline)),
    sendBatch: async (jobs: Iterable<MessageSendRequest<PushJob>>) =>
      defer(
        consumePush(
          batchOf(
            PUSH_QUEUE,
            [...jobs].map(({ body }) => body),
          ),
          inline,
        ),
      ),
  } as unknown as Queue<PushJob>;
  inline.DATA_EXPORTS = {
    send: async (job: DataExportJob) =>
      defer(consumeDataExports(batchOf(DATA_EXPORTS_QUEUE, [job]), inline, devMailbox(inline, config(inline)))),
  } as unknown as Queue<DataExportJob>;
  return inline;
}

export default {
  fetch: fetchAndSettle,
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobsAndSettle(env));
  },
} satisfies ExportedHandler<Env>;
