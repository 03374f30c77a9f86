import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { currentUserShape } from "~/lib/api-shapes";
import { useSession } from "~/lib/session";

/** The channel on which a tab that verified the email tells the others (same browser, same origin). */
const CHANNEL = "email-verified";

/** Tells the browser's other tabs that the email address was just verified (the link's page, on success). */
export function announceEmailVerified(): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("verified");
  channel.close();
}

/**
 * For a screen that asks to verify the email (`verified` false): once it is verified elsewhere, the screen's data
 * is read again and the request goes. Another tab of this browser says so at once (announceEmailVerified); a link
 * opened on another device or browser is noticed when the person comes back to this tab (GET /api/me).
 */
export function useEmailVerifiedElsewhere(verified: boolean): void {
  const { revalidate } = useRevalidator();
  const { api } = useSession();
  useEffect(() => {
    if (verified) return;
    const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(CHANNEL);
    channel?.addEventListener("message", revalidate);
    const recheck = () => {
      if (document.visibilityState !== "visible") return;
      api
        .get("/me", currentUserShape, { quiet: true })
        .then((me) => me.isEmailVerified && revalidate())
        .catch(() => undefined);
    };
    document.addEventListener("visibilitychange", recheck);
    return () => {
      channel?.close();
      document.removeEventListener("visibilitychange", recheck);
    };
  }, [verified, revalidate, api]);
}
