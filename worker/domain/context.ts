import { config, type Config, type Env } from "../env";
import type { Publish } from "./events";
import type { Mailer } from "./mail/mailer";
import { translatorFor, type Translate } from "./i18n";
import type { Defer } from "./shared/defer";

/**
 * What a domain command needs to know about the request that runs it. Built once per request by the Worker
 * entry and shared by the Hono API and the Remix loaders.
 */
export interface DomainContext {
  env: Env;
  db: D1Database;
  config: Config;
  mailer: Mailer;
  /** Where links in emails point: APP_URL when set, else the origin the request came to. */
  origin: string;
  ip: string;
  userAgent: string;
  language: string;
  t: Translate;
  /** Announces what a command did, once its write has committed (worker/domain/events.ts). */
  publish: Publish;
  /** Work that may finish after the answer (deleting stored files). */
  defer: Defer;
}

/** What a command that writes and announces needs, for callers without a request (the cron, tests). */
export type EffectsContext = Pick<DomainContext, "env" | "db" | "publish" | "defer">;

/** `db` is the request's D1 session (worker/db/bookmarks.ts); env.DB when not given. */
export function createDomainContext(
  env: Env,
  request: Request,
  language: string,
  effects: Pick<DomainContext, "publish" | "defer" | "mailer"> & { db?: D1Database },
): DomainContext {
  const settings = config(env);
  const { db = env.DB, ...rest } = effects;
  return {
    env,
    db,
    config: settings,
    origin: settings.APP_URL ?? new URL(request.url).origin,
    ip: request.headers.get("CF-Connecting-IP") ?? "local",
    userAgent: (request.headers.get("User-Agent") ?? "").slice(0, 256),
    language,
    t: translatorFor(language),
    ...rest,
  };
}
