import type { RequestDatabase } from "../db/bookmarks";
import type { Env } from "../env";
import type { DomainContext } from "../domain/context";
import type { Mailer } from "../domain/mail/mailer";
import type { CurrentSession } from "../domain/auth/sessions";
import type { LanguageCode } from "@shared/i18n/languages";

/** Hono's per-request variables, set by the middleware in worker/http/middleware.ts. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** A page's CSP nonce, set by the page handler (worker/app.ts) only. */
    nonce: string | undefined;
    language: LanguageCode;
    /** How this Worker sends mail (worker/app.ts's options: Resend, or a local run's mailbox). */
    mailer: Mailer;
    domain: DomainContext;
    /** The request's D1 session (worker/db/bookmarks.ts). */
    database: RequestDatabase;
    session: CurrentSession | null;
    /** How the session was presented: a Bearer header or the cookie (which needs CSRF on writes). */
    sessionSource: "bearer" | "cookie" | null;
    /**
     * The cookie session's CSRF token (an HMAC), made when first asked for: by a page, which writes it for its
     * forms, and by a write's check. A read of the API (the 30 s poll of /api/updates) never needs it. Null
     * without a cookie session.
     */
    csrfToken: () => Promise<string | null>;
  };
}

/** A request past requireSession: its session is never null. */
export type SignedInEnv = AppEnv & { Variables: { session: CurrentSession } };
