import { useCallback, useEffect, useState } from "react";

/**
 * The idempotency key of one payment attempt: fresh for each opening of a dialog (`renew`), kept across retries
 * of the same attempt, so a retried request after a lost answer is recognised by the server and charged once.
 * Made in the browser after hydration, so the server's render and the page agree.
 */
export function useAttemptKey(): { key: string; renew: () => void } {
  const [key, setKey] = useState("");
  const renew = useCallback(() => setKey(crypto.randomUUID()), []);
  useEffect(renew, [renew]);
  return { key, renew };
}
