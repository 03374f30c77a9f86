import { useLocation } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Updates } from "@shared/contracts/session";
import { useSession } from "~/lib/session";
import { connectUserChannel } from "~/lib/user-channel";
import { soon } from "~/lib/idle";
import { updatesAnswerShape } from "~/lib/api-shapes";

export type { Updates };

/** Spec §3: the updates summary starts at false, 0, 0, false. */
const NO_UPDATES: Updates = { home: false, notifications: 0, messages: 0, balance: false };

/** Spec §9: the fallback poll when no push arrives. */
const UPDATES_POLL_MS = 30_000;

/** Screens that clear an indicator without answering the new summary themselves: refetch after opening one. */
const CLEARING_PATHS = /^\/messages(\/|$)/;

interface UpdatesState {
  updates: Updates;
  /** Spec §4: "set all four indicators at once" (with an answer newer than any fetch still running). */
  setUpdates(updates: Updates): void;
  refresh(): void;
}

const UpdatesContext = createContext<UpdatesState>({ updates: NO_UPDATES, setUpdates: () => {}, refresh: () => {} });

type UpdateActions = Pick<UpdatesState, "setUpdates" | "refresh">;

/** The same functions without the summary: their readers do not render again whenever a badge changes. */
const UpdateActionsContext = createContext<UpdateActions>({ setUpdates: () => {}, refresh: () => {} });

/**
 * The summary to show once `next` arrives: the one shown when nothing changed, so that nothing reading it renders
 * again (the 30 s poll, the channel's opening, each answer that says what the page already shows). A lit Home dot
 * is the exception: every summary that says so is news for an open Home, which asks again for the posts published
 * since the newest it holds (app/routes/_shell.home.tsx), one more each time the creators post again.
 */
export function summaryToShow(shown: Updates, next: Updates): Updates {
  // Every field, so that one added to Updates counts as a change without this line knowing it.
  const same = (Object.keys(next) as (keyof Updates)[]).every((key) => shown[key] === next[key]);
  return same && !next.home ? shown : next;
}

/**
 * Keeps the sidebar indicators fresh (spec §7): GET /api/updates when signed in, every 30 s (while the tab is seen), whenever the user's
 * `updates.{userId}` channel opens or pushes NewUpdate, and after opening a screen that clears one. One fetch runs at a
 * time; a refresh asked for meanwhile runs right after it, and an answer older than the newest state is dropped.
 * Failures are only logged. `initial` is what the server rendered, so badges are right from the first paint.
 * The channel needs the session cookie (browsers cannot send a header on a WebSocket): `realtime` says there is one.
 */
export function UpdatesProvider({
  initial,
  realtime,
  children,
}: {
  initial: Updates | null;
  realtime: boolean;
  children: ReactNode;
}) {
  const { api, isAuth } = useSession();
  const [updates, setState] = useState<Updates>(initial ?? NO_UPDATES);
  const { pathname } = useLocation();
  const running = useRef(false);
  const again = useRef(false);
  const version = useRef(0);

  const setUpdates = useCallback((next: Updates) => {
    version.current++;
    setState((shown) => summaryToShow(shown, next));
  }, []);

  const refresh = useCallback(() => {
    if (!isAuth) return;
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    const asked = version.current;
    api
      .get("/updates", updatesAnswerShape, { quiet: true })
      .then((body) => {
        if (version.current === asked) setUpdates(body.updates);
      })
      .catch((error: unknown) => console.error("GET /updates failed", error))
      .finally(() => {
        running.current = false;
        if (again.current) {
          again.current = false;
          refresh();
        }
      });
  }, [api, isAuth, setUpdates]);

  useEffect(() => {
    if (!isAuth) {
      setUpdates(NO_UPDATES);
      return;
    }
    // With a channel, its open (the first one too) asks: no second request at start.
    if (!realtime) refresh();
    // A hidden tab (another one in front, the screen off) skips the poll, and asks once when it is seen again:
    // nobody reads its badges meanwhile, and a tab left open all day costs no request every 30 s.
    let missed = false;
    const timer = window.setInterval(() => (document.hidden ? (missed = true) : refresh()), UPDATES_POLL_MS);
    const seen = () => {
      if (missed && !document.hidden) {
        missed = false;
        refresh();
      }
    };
    document.addEventListener("visibilitychange", seen);
    let disconnect = () => {};
    const cancel = realtime
      ? soon(() => {
          disconnect = connectUserChannel(
            (event) => {
              if (event.event === "NewUpdate") refresh();
            },
            // Its 401 leaves for /login.
            { onSessionEnded: refresh },
          );
        })
      : () => {};
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", seen);
      cancel();
      disconnect();
    };
  }, [isAuth, realtime, refresh, setUpdates]);

  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = pathname;
    if (CLEARING_PATHS.test(pathname)) refresh();
  }, [pathname, refresh]);

  const value = useMemo(() => ({ updates, setUpdates, refresh }), [updates, setUpdates, refresh]);
  const actions = useMemo(() => ({ setUpdates, refresh }), [setUpdates, refresh]);
  return (
    <UpdateActionsContext.Provider value={actions}>
      <UpdatesContext.Provider value={value}>{children}</UpdatesContext.Provider>
    </UpdateActionsContext.Provider>
  );
}

export const useUpdates = () => useContext(UpdatesContext);

/**
 * Only `setUpdates` and `refresh`, for what changes the summary without showing it (a payment button in each post of
 * a feed, a dialog): such a component renders again when its own state changes, not whenever the summary does.
 */
export const useUpdateActions = () => useContext(UpdateActionsContext);
