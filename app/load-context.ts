import type { Env } from "@worker/env";
import type { DomainContext } from "@worker/domain/context";
import type { CurrentSession } from "@worker/domain/auth/sessions";
import type { LanguageCode } from "@shared/i18n/languages";

/** What worker/app.ts hands every loader and action. */
declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    domain: DomainContext;
    session: CurrentSession | null;
    csrfToken: string | null;
    nonce: string;
    language: LanguageCode;
    /** The Remix build's version; `npm run dev` reloads pages when it changes. */
    buildVersion: string;
    /** Served by a local run's Worker (worker/dev): it has the development mailbox and `npm run dev`'s reload. */
    localRun: boolean;
  }
}

export {};
