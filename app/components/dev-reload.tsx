import { useEffect } from "react";

const POLL_MS = 1000;

/**
 * Development only (APP_ENV=development): reloads the page once the Worker serves a build with another
 * version, which `npm run dev` produces on every save. A failed poll (the server taking the new build) is ignored.
 */
export function DevReload({ version }: { version: string }) {
  useEffect(() => {
    const check = async () => {
      try {
        const response = await fetch("/__dev/version", { cache: "no-store" });
        if (!response.ok) return;
        const { version: current } = (await response.json()) as { version: string };
        if (current !== version) window.location.reload();
      } catch {
        // The server is restarting; try again on the next tick.
      }
    };
    const timer = setInterval(() => void check(), POLL_MS);
    return () => clearInterval(timer);
  }, [version]);
  return null;
}
