import { config, vapidOf, type Env } from "../env";
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

export const backoffSeconds = (attempts: number) => Math.min(BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_SECONDS);

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - nowMs) / 1000;
  return Number.isFinite(seconds) ? Math.min(Math.max(0, Math.ceil(seconds)), MAX_DELAY_SECONDS) : null;
}

type Outcome = { done: true } | { done: false; delaySeconds: number };

interface TargetRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: string;
}

/**
 * One push to one device. The payload is written now, from the database (push-payload.ts), so a device removed
 * or a message deleted meanwhile sends nothing. A 404 or 410 says the subscription is gone: its row is deleted.
 * A 429 or 5xx, or no answer at all, is retried later; any other answer would be the same again, so it is
 * logged and dropped.
 */
async function deliver(env: Env, vapid: Vapid, job: PushJob, attempts: number): Promise<Outcome> {
  const target = await env.DB.prepare("SELECT id, user_id, endpoint, p256dh, auth, language FROM push_subscriptions WHERE id = ?").bind(job.subscriptionId).first<TargetRow>();
  if (!target) return { done: true };
  const payload = await pushPayloadFor(env.DB, target.user_id, target.language, job.topic);
  if (!payload) return { done: true };
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
  if (response.ok) {
    await env.DB.prepare("UPDATE push_subscriptions SET last_sent_at = ? WHERE id = ?").bind(isoNow(), target.id).run();
    return { done: true };
  }
  if (response.status === 404 || response.status === 410) {
    // Only the row this push was for: the endpoint may have been subscribed again since with new keys.
    await env.DB.prepare("DELETE FROM push_subscriptions WHERE id = ? AND endpoint = ?").bind(target.id, target.endpoint).run();
    return { done: true };
  }
  if (response.status === 429 || response.status >= 500) {
    return { done: false, delaySeconds: retryAfterSeconds(response.headers.get("Retry-After"), Date.now()) ?? backoffSeconds(attempts) };
  }
  console.warn(JSON.stringify({ queue: PUSH_QUEUE, subscriptionId: target.id, status: response.status }));
  return { done: true };
}

/**
 * The consumer: each message is one device's push, acknowledged when done and retried with its own delay
 * otherwise (the Queue gives up after wrangler.toml's max_retries). A malformed body, or push switched off
 * since it was queued, is acknowledged and dropped.
 */
export async function consumePush(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const vapid = vapidOf(config(env));
  for (const message of batch.messages) {
    const job = PushJobSchema.safeParse(message.body);
    if (!job.success || !vapid) {
      console.warn(JSON.stringify({ queue: PUSH_QUEUE, dropped: message.body }));
      message.ack();
      continue;
    }
    try {
      const outcome = await deliver(env, vapid, job.data, message.attempts);
      if (outcome.done) message.ack();
      else message.retry({ delaySeconds: outcome.delaySeconds });
    } catch (error) {
      console.error(JSON.stringify({ queue: PUSH_QUEUE, job: job.data, error: String(error) }));
      message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}
