import { useEffect, useMemo, useState } from "react";
import type { ApiClient } from "~/lib/api";
import { isNetworkFailure } from "~/lib/offline-copies";
import { flushOutbox } from "~/lib/outbox-sender";
import {
  anyPending,
  editOutbox,
  noteQueued,
  OUTBOX_CHANGED,
  OUTBOX_SYNC_TAG,
  outboxEntries,
  type OutboxAction,
  type OutboxEntry,
} from "~/lib/outbox-store";
import { soon } from "~/lib/idle";

export {
  forgetOutbox,
  OUTBOX_SENT,
  outboxEntries,
  waitingChanges,
  type OutboxAction,
  type OutboxEntry,
} from "~/lib/outbox-store";

/**
 * The outbox: likes, bookmarks, comments and chat messages made while the network fails are kept in IndexedDB, in
 * order, and sent when it answers again (app/lib/outbox-sender.ts). Each carries a client id, and
 * the server applies each exactly once: likes and bookmarks are set-state calls, comments and messages are stored
 * once per client id. Money never goes through here. This module is small and always loaded: the screens show
 * what waits (pending style) and what the server refused (failed, with its reason).
 */

/** What must reach the server in the order it was made: a post's likes, its bookmarks, its comments, a thread. */
const subjectOf = (action: OutboxAction) =>
  action.kind === "message"
    ? `thread:${action.conversationId}`
    : `${action.kind === "unlike" ? "like" : action.kind === "unbookmark" ? "bookmark" : action.kind}:${action.postId}`;

/** Per subject, the tab's last direct send: a like and the unlike right after it reach the server in that order. */
const sending = new Map<string, Promise<unknown>>();

/**
 * How long the screen's own call may wait for an answer: a network that swallows requests while the browser
 * believes it is online would otherwise hold the action for good. Past it the call is given up (aborted) and the
 * action kept in the outbox; should the call still land, the outbox's resend is applied once all the same.
 */
const FIRST_TRY_TIMEOUT_MS = 8_000;

/**
 * Sends an action now (`direct`, the screen's own call, given up when `signal` aborts) unless actions wait
 * already, in which case it waits behind them, so the server gets them in the order they were made; a network
 * failure, or no answer within FIRST_TRY_TIMEOUT_MS, puts it in the outbox too. Actions on one subject go one at a
 * time (a quick like, unlike, like never cross on the way). Anything else the server says reaches the caller.
 * Answers the server's answer, or null when it was kept.
 */
export function sendOrKeep<T>(
  client: ApiClient,
  action: OutboxAction,
  direct: (signal: AbortSignal) => Promise<T>,
  id?: string,
): Promise<{ answer: T } | null> {
  const subject = subjectOf(action);
  const turn = (sending.get(subject) ?? Promise.resolve()).then(async () => {
    if (anyPending()) {
      await queueAction(client, action, id);
      return null;
    }
    // The page's own timer, not AbortSignal.timeout: one time with the outbox's (and a test's clock).
    const controller = new AbortController();
    const timeout = setTimeout(
      () => controller.abort(new DOMException("The action's request was not answered in time", "TimeoutError")),
      FIRST_TRY_TIMEOUT_MS,
    );
    try {
      return { answer: await direct(controller.signal) };
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
      await queueAction(client, action, id);
      return null;
    } finally {
      clearTimeout(timeout);
    }
  });
  const settled = turn.then(
    () => undefined,
    () => undefined,
  );
  sending.set(subject, settled);
  void settled.then(() => sending.get(subject) === settled && sending.delete(subject));
  return turn;
}

/**
 * Keeps an action to send once the network answers, and tries at once as `client`; returns its entry (its id is
 * the client id the screen shows).
 */
export async function queueAction(
  client: ApiClient,
  action: OutboxAction,
  id: string = crypto.randomUUID(),
): Promise<OutboxEntry> {
  const entry: OutboxEntry = { id, action, createdAt: Date.now(), status: "pending", reason: null };
  // Known to this tab at once (waitingChanges, sendOrKeep), before IndexedDB has it.
  noteQueued(entry);
  await editOutbox((entries) => (entries.some((known) => known.id === id) ? entries : [...entries, entry]));
  // Where the browser has Background Sync, the service worker wakes an open page to send when the network is back.
  void navigator.serviceWorker?.ready
    .then((registration) =>
      (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(
        OUTBOX_SYNC_TAG,
      ),
    )
    .catch(() => undefined);
  void sendOutboxSoon(client);
  return entry;
}

/** Starts sending what waits (outbox-sender.ts, small and part of this chunk: it must work offline too). */
export async function sendOutboxSoon(client: ApiClient): Promise<void> {
  await flushOutbox(client);
}

/** The outbox's entries, kept current across tabs. */
export function useOutboxEntries(): OutboxEntry[] {
  const [entries, setEntries] = useState<OutboxEntry[]>([]);
  useEffect(() => {
    let active = true;
    // An outbox still empty keeps the same list: its readers (every post list, the tray) are not rendered again.
    const read = () =>
      void outboxEntries().then(
        (list) => active && setEntries((shown) => (list.length === 0 && shown.length === 0 ? shown : list)),
      );
    const cancel = soon(read);
    window.addEventListener(OUTBOX_CHANGED, read);
    return () => {
      active = false;
      cancel();
      window.removeEventListener(OUTBOX_CHANGED, read);
    };
  }, []);
  return entries;
}

/** The posts with a like or bookmark waiting in the outbox. */
export function useWaitingPostIds(): ReadonlySet<number> {
  const entries = useOutboxEntries();
  return useMemo(
    () =>
      new Set(
        entries.flatMap((entry) =>
          entry.status === "pending" && "postId" in entry.action && entry.action.kind !== "comment"
            ? [entry.action.postId]
            : [],
        ),
      ),
    [entries],
  );
}
