import { config, vapidOf, type Config, type Env } from "../env";
import { isPushServiceEndpoint } from "../domain/push/endpoints";
import { PushJobSchema, type PushJob, type PushTopic } from "../domain/push/jobs";
import { pushPayloadFor } from "../domain/push/push-payload";
import { isoNow } from "../domain/shared/time";
import { pushRequest, type Delivery, type Vapid } from "./send";

/** The Queue's name (wrangler.toml): the Worker's queue handler tells it from the mass-message one by it. */
export const PUSH_QUEUE = "fanclub-push";

/** Queue.sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;

/** The producer: one message per device (the unit a push service answers for, and the Queue retries). */
export async function enqueuePush(env: Env, jobs: PushJob[]): Promise<void> {
  for (let start = 0; start < jobs.length; start += SEND_BATCH) {
    await env.PUSH.sendBatch(jobs.slice(start, start + SEND_BATCH).map((body) => ({ body })));
  }
}

/** A chat message is worth waking the phone for at once; a new post can wait for the next wake-up. */
const DELIVERY_OF: Record<PushTopic["type"], Delivery> = {
  message: { ttlSeconds: 24 * 3600, urgency: "high" },
  notification: { ttlSeconds: 24 * 3600, urgency: "normal" },
  post: { ttlSeconds: 6 * 3600, urgency: "low" },
  test: { ttlSeconds: 300, urgency: "high" },
  // A stream is worth joining now or never.
  live: { ttlSeconds: 15 * 60, urgency: "high" },
};

/** First retry after 30 s, doubling, at most an hour apart; a Retry-After from the push service wins. */
const BACKOFF_BASE_SECONDS = 30;
const BACKOFF_MAX_SECONDS = 3600;
/** The longest delay a Queue message may be given (Cloudflare Queues: 12 hours). */
const MAX_DELAY_SECONDS = 12 * 3600;

const backoffSeconds = (attempts: number) =>
  Math.min(BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_SECONDS);

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
function retryAfterSeconds(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - nowMs) / 1000;
  return Number.isFinite(seconds) ? Math.min(Math.max(0, Math.ceil(seconds)), MAX_DELAY_SECONDS) : null;
}

/** What became of one push: done (`sent`: it reached the device; or there was nothing to send), or to be tried again. */
type Outcome = { done: true; sent: boolean } | { done: false; delaySeconds: number };
const NOTHING_SENT: Outcome = { done: true, sent: false };
const reachedDevice = (outcome: Outcome) => outcome.done && outcome.sent;

interface TargetRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: string;
}

/** The devices of a batch's pushes, read in one statement (a device removed meanwhile is absent). */
async function targetsOf(db: D1Database, ids: number[]): Promise<Map<number, TargetRow>> {
  const { results } = await db
    .prepare(
      "SELECT id, user_id, endpoint, p256dh, auth, language FROM push_subscriptions WHERE id IN (SELECT value FROM json_each(?))",
    )
    .bind(JSON.stringify([...new Set(ids)]))
    .all<TargetRow>();
  return new Map(results.map((row) => [row.id, row]));
}

/**
 * One push to one device. The payload is written now, from the database (push-payload.ts), so a device removed
 * or a message deleted meanwhile sends nothing. An endpoint that is not a listed push service's (a row stored
 * before the list, or under another one) is not contacted: the push is logged and dropped, the row kept (the
 * person sees the device in Settings; a host listed again later gets its pushes). A 404 or 410 says the subscription is gone: its row is deleted.
 * A 429 or 5xx, or no answer at all, is retried later; any other answer would be the same again, so it is
 * logged and dropped.
 */
async function deliver(
  db: D1Database,
  settings: Config,
  vapid: Vapid,
  job: PushJob,
  target: TargetRow | undefined,
  attempts: number,
): Promise<Outcome> {
  if (!target) return NOTHING_SENT;
  if (!isPushServiceEndpoint(target.endpoint, settings.PUSH_SERVICE_HOSTS, settings.APP_ENV)) {
    console.warn(
      JSON.stringify({ queue: PUSH_QUEUE, subscriptionId: target.id, refused: "not a push service's endpoint" }),
    );
    return NOTHING_SENT;
  }
  const payload = await pushPayloadFor(db, target.user_id, target.language, job.topic);
  if (!payload) return NOTHING_SENT;
  const request = await pushRequest(vapid, target, payload, DELIVERY_OF[job.topic.type]);
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    console.warn(JSON.stringify({ queue: PUSH_QUEUE, subscriptionId: target.id, error: String(error) }));
    return { done: false, delaySeconds: backoffSeconds(attempts) };
  }
  // The body is not needed; reading it lets the connection go back to the pool.
  await response.arrayBuffer().catch(() => null);
  if (response.ok) return { done: true, sent: true };
  if (response.status === 404 || response.status === 410) {
    // Only the row this push was for: the endpoint may have been subscribed again since with new keys.
    await db
      .prepare("DELETE FROM push_subscriptions WHERE id = ? AND endpoint = ?")
      .bind(target.id, target.endpoint)
      .run();
    return NOTHING_SENT;
  }
  if (response.status === 429 || response.status >= 500) {
    return {
      done: false,
      delaySeconds: retryAfterSeconds(response.headers.get("Retry-After"), Date.now()) ?? backoffSeconds(attempts),
    };
  }
  console.warn(JSON.stringify({ queue: PUSH_QUEUE, subscriptionId: target.id, status: response.status }));
  return NOTHING_SENT;
}

/**
 * The consumer: each message is one device's push, acknowledged when done and retried with its own delay
 * otherwise (the Queue gives up after wrangler.toml's max_retries). A malformed body, or push switched off
 * since it was queued, is acknowledged and dropped. The batch's devices are read in one statement, its pushes go
 * out side by side (each push service answers for its own), and the devices reached are marked in one statement
 * at the end; a batch costs the time of its slowest push instead of the sum of all. The mark is best effort: a push
 * that went out is acknowledged even if marking fails, so that nobody is pushed the same thing twice.
 */
export async function consumePush(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const settings = config(env);
  const vapid = vapidOf(settings);
  const work: { message: Message<unknown>; job: PushJob }[] = [];
  for (const message of batch.messages) {
    const job = PushJobSchema.safeParse(message.body);
    if (job.success && vapid) {
      work.push({ message, job: job.data });
      continue;
    }
    console.warn(JSON.stringify({ queue: PUSH_QUEUE, dropped: message.body }));
    message.ack();
  }
  if (!vapid || work.length === 0) return;
  const db = env.DB;
  const retryLater = (message: Message<unknown>): Outcome => ({
    done: false,
    delaySeconds: backoffSeconds(message.attempts),
  });
  const targets = await targetsOf(
    db,
    work.map(({ job }) => job.subscriptionId),
  ).catch((error: unknown) => {
    console.error(JSON.stringify({ queue: PUSH_QUEUE, error: String(error) }));
    return null;
  });
  const outcomes = await Promise.all(
    work.map(({ message, job }) =>
      targets
        ? deliver(db, settings, vapid, job, targets.get(job.subscriptionId), message.attempts).catch(
            (error: unknown) => {
              console.error(JSON.stringify({ queue: PUSH_QUEUE, job, error: String(error) }));
              return retryLater(message);
            },
          )
        : retryLater(message),
    ),
  );
  const reached = work.filter((_, i) => reachedDevice(outcomes[i]!)).map(({ job }) => job.subscriptionId);
  if (reached.length > 0) {
    await db
      .prepare("UPDATE push_subscriptions SET last_sent_at = ? WHERE id IN (SELECT value FROM json_each(?))")
      .bind(isoNow(), JSON.stringify(reached))
      .run()
      .catch((error: unknown) =>
        console.error(JSON.stringify({ queue: PUSH_QUEUE, marking: reached, error: String(error) })),
      );
  }
  work.forEach(({ message }, i) => {
    const outcome = outcomes[i]!;
    if (outcome.done) message.ack();
    else message.retry({ delaySeconds: outcome.delaySeconds });
  });
}
