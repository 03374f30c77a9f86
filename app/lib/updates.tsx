import { useLocation } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Updates } from "../../worker/domain/updates/get-updates";
import { useSession } from "./session";
import { connectUserChannel } from "./user-channel";

export type { Updates };

/** Spec §3: the updates summary starts at false, 0, 0, false. */
export const NO_UPDATES: Updates = { home: false, notifications: 0, messages: 0, balance: false };

/** Spec §9: the fallback poll when no push arrives. */
export const UPDATES_POLL_MS = 30_000;

/** Screens that clear an indicator when opened; after visiting one the summary is fetched again. */
const CLEARING_PATHS = /^\/(home|notifications|messages)(\/|$)/;

interface UpdatesState {
  updates: Updates;
  /** Spec §4: "set all four indicators at once". */
  setUpdates(updates: Updates): void;
  refresh(): void;
}

const UpdatesContext = createContext<UpdatesState>({ updates: NO_UPDATES, setUpdates: () => {}, refresh: () => {} });

/**
 * Keeps the sidebar indicators fresh (spec §7): GET /api/updates when signed in, every 30 s, whenever the user's
 * `updates.{userId}` channel pushes NewUpdate, and after opening a screen that clears one. Failures are only
 * logged. `initial` is what the server rendered, so badges are right from the first paint.
 */
export function UpdatesProvider({ initial, children }: { initial: Updates | null; children: ReactNode }) {
  const { api, isAuth } = useSession();
  const [updates, setUpdates] = useState<Updates>(initial ?? NO_UPDATES);
  const { pathname } = useLocation();
  const inFlight = useRef(false);

  const refresh = useCallback(() => {
    if (!isAuth || inFlight.current) return;
    inFlight.current = true;
    api
      .get<{ updates: Updates }>("/updates", { quiet: true })
      .then((body) => setUpdates(body.updates))
      .catch((error: unknown) => console.error("GET /updates failed", error))
      .finally(() => {
        inFlight.current = false;
      });
  }, [api, isAuth]);

  useEffect(() => {
    if (!isAuth) {
      setUpdates(NO_UPDATES);
      return;
    }
    refresh();
    const timer = window.setInterval(refresh, UPDATES_POLL_MS);
    const disconnect = connectUserChannel((event) => {
      if (event.event === "NewUpdate") refresh();
    });
    return () => {
      window.clearInterval(timer);
      disconnect();
    };
  }, [isAuth, refresh]);

  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = pathname;
    if (CLEARING_PATHS.test(pathname)) refresh();
  }, [pathname, refresh]);

  const value = useMemo(() => ({ updates, setUpdates, refresh }), [updates, refresh]);
  return <UpdatesContext.Provider value={value}>{children}</UpdatesContext.Provider>;
}

export const useUpdates = () => useContext(UpdatesContext);
