import { ApiError, MalformedAnswerError, type ApiClient } from "~/lib/api";
import { bookmarkStateShape, commentAnswerShape, likeStateShape } from "~/lib/comment-shape";
import { editOutbox, outboxEntries, OUTBOX_SENT, type OutboxEntry } from "~/lib/outbox-store";
import { number, object } from "@shared/shape";

/**
 * Sends the outbox (app/lib/outbox.ts): one sender at a time across the device's tabs (a Web Lock), oldest entry
 * first. An entry the server took leaves the outbox and is announced (OUTBOX_SENT) to the screen that shows it;
 * one it refused (a 4xx: the post is gone, the pair is blocked) stays, marked failed with the server's reason, until
 * the person retries or discards it; a network failure or a 5xx stops the round, to be tried again later.
 */

/**
 * A request the network swallowed (no answer, no error) would hold every later entry up: it is given up after this
 * long and the round ends, to be tried again later (sending twice is harmless, see `send`); sooner when the network
 * is seen to be back meanwhile (`outboxNetworkBack`).
 */
export const OUTBOX_REQUEST_TIMEOUT_MS = 20_000;

/** One entry's request: each is applied once however often it is sent (set-state calls, client ids). */
function send(client: ApiClient, entry: OutboxEntry, signal: AbortSignal): Promise<unknown> {
  const quiet = { quiet: true, signal };
  const { action } = entry;
  switch (action.kind) {
    case "like":
      return client.post(`/posts/${action.postId}/like`, {}, likeStateShape, quiet);
    case "unlike":
      return client.delete(`/posts/${action.postId}/like`, quiet);
    case "bookmark":
      return client.post(`/posts/${action.postId}/bookmark`, {}, bookmarkStateShape, quiet);
    case "unbookmark":
      return client.delete(`/posts/${action.postId}/bookmark`, quiet);
    case "comment":
      return client.post(
        `/posts/${action.postId}/comments`,
        { text: action.text, clientId: entry.id },
        commentAnswerShape,
        quiet,
      );
    case "message":
      return sendMessage(client, entry.id, action.conversationId, action.text, signal);
  }
}

/** A sent message's answer in outline (the whole of it is checked by the chat's shape), kept whole. */
const sentOutline = (value: unknown): unknown => {
  object({ message: object({ id: number }) })(value);
  return value;
};

/**
 * A message's answer is checked by the chat's own shape, whose chunk is loaded only once the server has answered:
 * never on a page's first load (the shell carries the outbox), and never while offline, where a chunk that fails to
 * load would stay failed for the page (Chromium does not fetch a failed module again).
 */
async function sendMessage(
  client: ApiClient,
  clientId: string,
  conversationId: number,
  text: string,
  signal: AbortSignal,
): Promise<unknown> {
  // Money never waits for later: a price set meanwhile is refused, not charged.
  // Its outline is checked at once: an answer of another shape is not the server's answer (app/lib/api.ts).
  const answer = await client.post(
    `/conversations/${conversationId}/messages`,
    { clientId, text, maxPaidCents: 0 },
    sentOutline,
    { quiet: true, signal },
  );
  const { sentShape } = await import("~/components/messages/chat-shapes");
  return sentShape(answer);
}

/** A refusal the person must decide on (not the network, not the server failing). */
const refusedBy = (error: unknown): ApiError | null =>
  error instanceof ApiError && !(error instanceof MalformedAnswerError) && error.status < 500 ? error : null;

/**
 * The request this tab's round waits on. When the network is seen to be back (`outboxNetworkBack`) while it is
 * unanswered, it was most likely sent into the dead network and lost: it is given up once it has waited
 * `outboxStaleAfter` (at once if it has already), and the round starts again at once. Giving it up is safe
 * whatever became of it: every entry is applied once however often it is sent (`send`), and it stays in the outbox
 * until an answer says it arrived. A request merely slow is resent too; each recovery that gives one up doubles
 * the wait of the next (until an answer comes), so a slow network is not asked again and again in vain.
 */
interface InFlight {
  controller: AbortController;
  sentAt: number;
  /** The network was seen back while it waited: it is given up at sentAt + outboxStaleAfter. */
  doomed: boolean;
  giveUpTimer?: ReturnType<typeof setTimeout>;
}
let inFlight: InFlight | null = null;
/** Requests given up by recoveries since the outbox last had an answer. */
let givenUp = 0;

const OUTBOX_STALE_AFTER_MS = 1_000;
/** How long a request must have waited before a recovery gives it up, after `given` such give-ups in a row. */
export const outboxStaleAfter = (given: number) =>
  Math.min(OUTBOX_REQUEST_TIMEOUT_MS, OUTBOX_STALE_AFTER_MS * 2 ** Math.max(0, Math.min(given, 30)));

/** Sends one entry, as the request `outboxNetworkBack` may give up; a DOMException TimeoutError after OUTBOX_REQUEST_TIMEOUT_MS. */
async function sendTracked(client: ApiClient, entry: OutboxEntry): Promise<unknown> {
  const controller = new AbortController();
  const request: InFlight = { controller, sentAt: Date.now(), doomed: false };
  // The page's own timer, not AbortSignal.timeout: recoveries and the timeout keep one time (a test's clock too).
  const timeout = setTimeout(
    () => controller.abort(new DOMException("The outbox's request was not answered in time", "TimeoutError")),
    OUTBOX_REQUEST_TIMEOUT_MS,
  );
  inFlight = request;
  try {
    const answer = await send(client, entry, controller.signal);
    givenUp = 0;
    return answer;
  } catch (error) {
    if (error instanceof ApiError) givenUp = 0;
    throw error;
  } finally {
    clearTimeout(timeout);
    clearTimeout(request.giveUpTimer);
    if (inFlight === request) inFlight = null;
  }
}

function giveUp(request: InFlight) {
  if (inFlight !== request || request.controller.signal.aborted) return;
  givenUp++;
  request.controller.abort(new DOMException("The network came back while the outbox's request waited", "AbortError"));
}

/**
 * How a round ended: the outbox emptied of what it could send ("done"), or on a request the network did not answer
 * (it failed, was given up or timed out: "unanswered"), or on the server failing (a 5xx, an answer not of its
 * shape, such as a captive portal's page: "failed"). Only the first two may be followed by another round at once.
 */
type RoundEnd = "done" | "unanswered" | "failed";

/** The network did not answer: fetch failed (or a chunk it loads did), or the request was given up. */
const unanswered = (error: unknown) =>
  error instanceof TypeError ||
  (error instanceof DOMException && (error.name === "AbortError" || error.name === "TimeoutError"));

async function sendAll(client: ApiClient): Promise<RoundEnd> {
  for (;;) {
    const next = (await outboxEntries()).find((entry) => entry.status === "pending");
    if (!next) return "done";
    let answer: unknown;
    try {
      answer = await sendTracked(client, next);
    } catch (error) {
      const refusal = refusedBy(error);
      if (!refusal) return unanswered(error) ? "unanswered" : "failed";
      await editOutbox((entries) =>
        entries.map((entry) =>
          entry.id === next.id ? { ...entry, status: "failed", reason: refusal.body.message } : entry,
        ),
      );
      continue;
    }
    await editOutbox((entries) => entries.filter((entry) => entry.id !== next.id));
    window.dispatchEvent(new CustomEvent(OUTBOX_SENT, { detail: { entry: next, answer } }));
  }
}

/**
 * While something waits, the sender tries again after 1 s, then 2, 4, 8 s, then every 15 s (app/components/
 * outbox-tray.tsx): a network back within seconds is used within seconds, one gone for long is not asked in vain
 * more often than every 15 s. An answer from the server (network-answers.ts) does not wait for the next try.
 */
const OUTBOX_RETRY_FIRST_MS = 1_000;
const OUTBOX_RETRY_MAX_MS = 15_000;

/** The wait before try `attempt` (0 = the first after the one that failed). */
export const outboxRetryDelay = (attempt: number) =>
  Math.min(OUTBOX_RETRY_MAX_MS, OUTBOX_RETRY_FIRST_MS * 2 ** Math.max(0, Math.min(attempt, 30)));

let round: Promise<void> | null = null;
/**
 * A flush asked for while a round runs: the round may be failing on a request sent before the network came back,
 * so one more round follows it at once (rather than at the next try), unless the round ended on the server failing
 * (a 5xx, a malformed answer: the backoff's next try, not a loop). Rounds never overlap: each entry is sent by one
 * round at a time, and leaves the outbox before the next round reads it.
 */
let again = false;
let latestClient: ApiClient | null = null;

async function sendRound(client: ApiClient): Promise<RoundEnd> {
  try {
    // Another tab holding the lock sends what waits.
    if (navigator.locks)
      return await navigator.locks.request("fanclub-outbox", { ifAvailable: true }, (lock) =>
        lock ? sendAll(client) : "done",
      );
    return await sendAll(client);
  } catch (error) {
    console.warn("the outbox could not be sent", error);
    return "failed";
  }
}

/** Sends what waits as the signed-in person (`client`), unless a round is under way in this tab or another. */
export function flushOutbox(client: ApiClient): Promise<void> {
  latestClient = client;
  if (round) {
    again = true;
    return round;
  }
  round = (async () => {
    try {
      let end: RoundEnd;
      do {
        again = false;
        end = await sendRound(latestClient ?? client);
      } while (again && end !== "failed");
    } finally {
      round = null;
    }
  })();
  return round;
}

/**
 * The network is seen to be back (the server answered, the browser went online): what waits is sent at once, and
 * a request the round still waits on, sent before, is given up once it has waited outboxStaleAfter, so that the
 * round that follows sends it again instead of waiting for its timeout. The answer to the round's own request
 * (`answered`, its signal) is none of this: the round goes on by itself.
 */
export function outboxNetworkBack(client: ApiClient, answered?: AbortSignal): Promise<void> {
  const request = inFlight;
  if (answered && request?.controller.signal === answered) return round ?? Promise.resolve();
  if (request && !request.doomed) {
    request.doomed = true;
    const wait = request.sentAt + outboxStaleAfter(givenUp) - Date.now();
    if (wait <= 0) giveUp(request);
    else request.giveUpTimer = setTimeout(() => giveUp(request), wait);
  }
  return flushOutbox(client);
}
