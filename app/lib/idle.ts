/** The longest a deferred start-up task waits for the main thread to go quiet. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `task` once the page has loaded and the main thread is idle (requestIdleCallback, or a short timeout
 * where there is none), so start-up work nobody sees in the first paint (the service worker's registration,
 * clearing a signed-out device's offline data) does not lengthen hydration on a slow phone. Returns a cancel
 * function for an effect's cleanup.
 */
export function whenIdle(task: () => void, timeoutMs = IDLE_TIMEOUT_MS): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  let timer: number | undefined;
  const schedule = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === "function")
      idleHandle = window.requestIdleCallback(() => cancelled || task(), { timeout: timeoutMs });
    else timer = window.setTimeout(() => cancelled || task(), 1);
  };
  if (document.readyState === "complete") schedule();
  else window.addEventListener("load", schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", schedule);
    if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle);
    if (timer !== undefined) window.clearTimeout(timer);
  };
}

/**
 * Runs `task` soon, in a task of its own (a 0 ms timeout). React runs all of a hydration's effects in one task;
 * an effect's start-up work (opening a socket, a request, a storage read) put here does not lengthen it, which on a
 * slow phone was one long task with Remix's route discovery. Returns a cancel function for the effect's cleanup.
 */
export function soon(task: () => void): () => void {
  const timer = window.setTimeout(task, 0);
  return () => window.clearTimeout(timer);
}
