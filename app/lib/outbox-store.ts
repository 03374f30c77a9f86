import { get, update } from "idb-keyval";
import { storageRefusedBy } from "~/lib/offline-copies";
import type { WaitingChange } from "~/lib/timeline";

/**
 * The outbox's list (app/lib/outbox.ts): its entries in IndexedDB and this tab's view of them. Apart from what sends
 * them (outbox.ts, outbox-sender.ts), so that the sender and a sign-out (offline.ts) read and clear it without
 * importing the API client back.
 */

export type OutboxAction =
  | { kind: "like" | "unlike" | "bookmark" | "unbookmark"; postId: number }
  | { kind: "comment"; postId: number; text: string }
  | { kind: "message"; conversationId: number; text: string };

export interface OutboxEntry {
  /** The client id: also the comment's or message's clientId on the server. */
  id: string;
  action: OutboxAction;
  createdAt: number;
  status: "pending" | "failed";
  /** The server's translated reason, once it refused the action. */
  reason: string | null;
}

const OUTBOX_KEY = "outbox";
/** The Background Sync tag the service worker answers by asking open pages to send (FLUSH_OUTBOX). */
export const OUTBOX_SYNC_TAG = "outbox";
/** Fired on window (and told to the other tabs) whenever the outbox changes. */
export const OUTBOX_CHANGED = "outbox-changed";
/** Fired on window with { entry, answer } when an entry reached the server. */
export const OUTBOX_SENT = "outbox-sent";

const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("fanclub-outbox");
channel?.addEventListener("message", () => window.dispatchEvent(new Event(OUTBOX_CHANGED)));

function changed() {
  window.dispatchEvent(new Event(OUTBOX_CHANGED));
  channel?.postMessage("changed");
}

/**
 * What this tab last read or wrote: whether anything waits, without a round trip to IndexedDB. Where IndexedDB
 * refuses (private browsing, storage full), the outbox lives here alone: it still sends once the network is
 * back, but only while this tab stays open.
 */
let snapshot: OutboxEntry[] = [];

export async function outboxEntries(): Promise<OutboxEntry[]> {
  if (typeof indexedDB === "undefined") return snapshot;
  try {
    snapshot = (await get<OutboxEntry[]>(OUTBOX_KEY)) ?? [];
  } catch (error) {
    storageRefusedBy(error);
  }
  return snapshot;
}

/** Forgets this tab's view of the outbox (sign-out: the stored list is cleared with the other copies). */
export function forgetOutbox(): void {
  snapshot = [];
  changed();
}

/** The likes and bookmarks that wait in this tab's view of the outbox, oldest first (written before they are stored). */
export const waitingChanges = (): WaitingChange[] =>
  snapshot.flatMap(({ status, action }) =>
    status === "pending" && action.kind !== "comment" && action.kind !== "message"
      ? [{ kind: action.kind, postId: action.postId }]
      : [],
  );

/** Changes the stored list in one IndexedDB transaction, then tells every tab. */
export async function editOutbox(change: (entries: OutboxEntry[]) => OutboxEntry[]): Promise<void> {
  try {
    await update<OutboxEntry[]>(OUTBOX_KEY, (entries = []) => (snapshot = change(entries)));
  } catch (error) {
    snapshot = change(snapshot);
    storageRefusedBy(error);
  }
  changed();
}

/** Whether any action waits in this tab's view of the outbox. */
export const anyPending = (): boolean => snapshot.some((entry) => entry.status === "pending");

/** Adds an entry to this tab's view at once, before IndexedDB has it. */
export function noteQueued(entry: OutboxEntry): void {
  if (!snapshot.some((known) => known.id === entry.id)) snapshot = [...snapshot, entry];
}
