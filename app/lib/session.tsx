import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { createApiClient, type ApiClient } from "~/lib/api";
import { readToken } from "~/lib/token";
import { currentUserShape } from "~/lib/api-shapes";

/** spec §3: the current user, with the spec's initial values. */
export interface CurrentUser {
  userId: number;
  username: string;
  avatarUrl: string;
  isCreator: boolean;
  isEmailVerified: boolean;
}

const ANONYMOUS: CurrentUser = { userId: 0, username: "", avatarUrl: "", isCreator: false, isEmailVerified: true };

interface SessionState {
  isAuth: boolean;
  user: CurrentUser;
  api: ApiClient;
  setAuth(isAuth: boolean): void;
  setUser(user: CurrentUser): void;
}

const SessionContext = createContext<SessionState | null>(null);
const CsrfTokenContext = createContext<string | null>(null);

/**
 * Auth state of spec §3/§4. The server render already knows the user from the session cookie; if it does not
 * but a token is stored (a session opened by the API), the user is loaded with GET /me and marked signed in.
 */
export function SessionProvider({
  viewer,
  csrfToken,
  children,
}: {
  viewer: CurrentUser | null;
  csrfToken: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [isAuth, setAuth] = useState(viewer !== null);
  const [user, setUser] = useState<CurrentUser>(viewer ?? ANONYMOUS);
  // One client per CSRF token: re-creating it on every render (or when translations load) would re-run the
  // effects that use it. The alert text is read when a 500 happens, in the language of that moment.
  const translate = useRef(t);
  translate.current = t;
  const api = useMemo(
    () => createApiClient({ csrfToken, serverErrorText: () => translate.current("server error.") }),
    [csrfToken],
  );

  useEffect(() => {
    setAuth(viewer !== null);
    setUser(viewer ?? ANONYMOUS);
  }, [viewer]);

  useEffect(() => {
    if (isAuth || !readToken()) return;
    api
      .get("/me", currentUserShape, { quiet: true })
      .then((me) => {
        setUser(me);
        setAuth(true);
      })
      .catch((error: unknown) => console.error("GET /me failed", error));
  }, [api, isAuth]);

  const value = useMemo(() => ({ isAuth, user, api, setAuth, setUser }), [isAuth, user, api]);
  return (
    <SessionContext.Provider value={value}>
      <CsrfTokenContext.Provider value={csrfToken}>{children}</CsrfTokenContext.Provider>
    </SessionContext.Provider>
  );
}

/**
 * The session's CSRF token, for a form the browser may post itself. A context of its own: the many forms of a
 * feed render again only if the token changes, not with the session state or the router's.
 */
export const useCsrfToken = () => useContext(CsrfTokenContext);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error("useSession outside SessionProvider");
  return state;
}
