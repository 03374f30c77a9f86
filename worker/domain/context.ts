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
  /** Where the request comes from (locationOf): used by creators' geo-blocking and the devices list. */
  country: string;
  /** The country's subdivision (a US state's two letters) when known, else null. */
  region: string | null;
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
    ...locationOf(request, env),
    language,
    t: translatorFor(language),
    ...rest,
  };
}

const COUNTRY = /^[A-Z]{2}$/;
const REGION = /^[A-Z0-9]{1,3}$/;

/**
 * The request's country (ISO 3166-1 alpha-2, "XX" when unknown) and subdivision. In production Cloudflare sets
 * `CF-IPCountry` on every request (a client cannot forge it), and `CF-Region-Code` with the "Add visitor location
 * headers" managed transform on. A local run has neither: LOCAL_COUNTRY ("DE", or "US-CA" with a state) stands in.
 */
function locationOf(request: Request, env: Pick<Env, "LOCAL_COUNTRY">): { country: string; region: string | null } {
  const header = request.headers.get("CF-IPCountry")?.toUpperCase();
  const [localCountry, localRegion] = (env.LOCAL_COUNTRY ?? "").toUpperCase().split("-");
  const country =
    header && COUNTRY.test(header) ? header : localCountry && COUNTRY.test(localCountry) ? localCountry : "XX";
  const regionText = (header ? request.headers.get("CF-Region-Code") : localRegion)?.toUpperCase() ?? "";
  return { country, region: REGION.test(regionText) ? regionText : null };
}
