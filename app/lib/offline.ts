import { clear } from "idb-keyval";
import { CLEAR_PRIVATE_DATA, PRIVATE_CACHES } from "~/sw/policy";
import { forgetOutbox } from "~/lib/outbox-store";
import { forgetToken } from "~/lib/token";

const REPLY_TIMEOUT_MS = 2000;

/** Asks the active service worker to drop its cache of private pages, and waits (briefly) for its answer. */
async function askServiceWorker(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const worker = navigator.serviceWorker.controller ?? (await navigator.serviceWorker.getRegistration())?.active;
  if (!worker) return;
  const channel = new MessageChannel();
  const answered = new Promise<void>((resolve) => {
    channel.port1.onmessage = () => resolve();
    setTimeout(resolve, REPLY_TIMEOUT_MS);
  });
  worker.postMessage({ type: CLEAR_PRIVATE_DATA }, [channel.port2]);
  await answered;
  channel.port1.close();
}

/**
 * Forgets everything this device keeps of the signed-in person for offline use: the service worker's "pages"
 * and "media" caches (asked of the worker, which also drops its media index, and deleted here too, whichever is
 * reachable) and idb-keyval's store (the screens' offline copies and the outbox). Call it on sign-out, before
 * leaving the page. Never throws.
 */
export async function clearOfflineData(): Promise<void> {
  forgetOutbox();
  await Promise.allSettled([
    askServiceWorker(),
    ...(typeof caches === "undefined" ? [] : PRIVATE_CACHES.map((name) => caches.delete(name))),
    typeof indexedDB === "undefined" ? Promise.resolve() : clear(),
  ]);
}

let leaving: Promise<void> | null = null;

/**
 * Forgets the token and everything kept for offline use, then loads /login afresh (no signed-in state survives
 * in memory). Once per page, however many ask: a sign-out and the 401s that other requests meet meanwhile lead
 * to one navigation, not to one cancelling the other.
 */
export function leaveForLogin(): Promise<void> {
  leaving ??= (async () => {
    forgetToken();
    await clearOfflineData();
    window.location.assign("/login");
  })();
  return leaving;
}
