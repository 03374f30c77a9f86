import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useUpdates } from "~/lib/updates";

/**
 * The earnings while they are read: a payment to the creator comes with a notification, which changes the updates
 * summary (app/lib/updates.tsx), and then the figures are read again.
 */
export function useFreshEarnings() {
  const { updates } = useUpdates();
  const { revalidate } = useRevalidator();
  const seen = useRef(updates);
  useEffect(() => {
    if (seen.current === updates) return;
    seen.current = updates;
    revalidate();
  }, [updates, revalidate]);
}
