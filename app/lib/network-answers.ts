/**
 * The page's evidence that the network works: an answer from the app's server (an API response that is not a
 * 5xx, whose body is the API's and of its shape, the real-time socket opening or answering a ping). The browser's `online` event misses a network that
 * died without the browser noticing (a dead Wi-Fi, a proxy dropping connections), so what waits for the network
 * (the outbox's sender, app/components/outbox-tray.tsx) also listens here. Without listeners an answer costs nothing.
 */
/** Called with the answered request's signal, if it had one: a listener knows its own requests' answers by it. */
type Listener = (signal?: AbortSignal) => void;

const listeners = new Set<Listener>();

/** Tells every listener that the server just answered (the request given `signal`, if any). */
export function networkAnswered(signal?: AbortSignal): void {
  for (const listener of listeners) {
    try {
      listener(signal);
    } catch (error) {
      console.error("a network-answer listener failed", error);
    }
  }
}

/** Calls `listener` on every answer of the server until the returned function is called. */
export function onNetworkAnswer(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
