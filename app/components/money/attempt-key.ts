import { useCallback, useEffect, useState } from "react";

/**
 * The idempotency key of one payment attempt: fresh for each opening of a dialog (`renew`), kept across retries
 * of the same attempt, so a retried request after a lost answer is recognised by the server and charged once.
 * Empty until the first `renew`: a button that opens a dialog renews on its click, so a feed of posts does not
 * render each of its tip and unlock buttons again after the hydration. A form that sends the key without a
 * dialog (`atMount`) gets one in the browser after hydration, so the server's render and the page agree.
 */
export function useAttemptKey({ atMount = false }: { atMount?: boolean } = {}): { key: string; renew: () => void } {
  const [key, setKey] = useState("");
  const renew = useCallback(() => setKey(crypto.randomUUID()), []);
  useEffect(() => {
    if (atMount) renew();
  }, [atMount, renew]);
  return { key, renew };
}
