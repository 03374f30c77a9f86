import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { getCookie } from "hono/cookie";
import {
  LANGUAGE_COOKIE,
  languageFromAcceptHeader,
  matchLanguage,
  FALLBACK_LANGUAGE,
  type LanguageCode,
} from "@shared/i18n/languages";
import { setBounded } from "../domain/shared/bounded-map";
import { createDomainContext } from "../domain/context";
import { inViewerPlace } from "../domain/policies/viewer-place";
import { createPublisher } from "../events/publisher";
import { findSession, forgetSessionsOf } from "../domain/auth/sessions";
import { BOOKMARK_COOKIE, BOOKMARK_HEADER, incomingBookmark, requestDatabase } from "../db/bookmarks";
import { AppError } from "../domain/shared/errors";
import { message } from "@shared/messages";
import { base64url, hmac, safeEqualText } from "../domain/shared/crypto";
import { config } from "../env";
import { liveMediaOrigins } from "../live/transports";
import { streamMediaOrigins } from "../domain/media/stream/playback";
import { readSessionCookie } from "./cookies";
import { errorResponse } from "./errors";
import type { AppEnv, SignedInEnv } from "./types";

/** Stripe's hosted checkout, where the top-up form's POST redirects when Stripe is configured. */
const STRIPE_CHECKOUT_ORIGIN = "https://checkout.stripe.com";

function contentSecurityPolicy(
  nonce: string | undefined,
  stripeCheckout: boolean,
  liveOrigins: readonly string[],
  stream: { upload: readonly string[]; play: readonly string[] },
): string {
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval' lets WebAssembly compile (a video's AAC encoder, app/lib/video-renditions.ts), not eval.
    nonce ? `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'` : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Cloudflare Stream's signed HLS manifests (VIDEO_PIPELINE=stream), played natively; hls.js fetches them instead.
    ["media-src 'self' blob:", ...stream.play].join(" "),
    "font-src 'self'",
    // Live video's WHIP/WHEP endpoints, when a stream publishes through an SFU (worker/live/transports.ts); with
    // VIDEO_PIPELINE=stream, the tus upload host and the signed manifests (worker/domain/media/stream/playback.ts).
    ["connect-src 'self'", ...new Set([...liveOrigins, ...stream.upload, ...stream.play])].join(" "),
    // blob: for the AAC encoder's worker, which mediabunny's package builds from its own inlined script.
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    // Browsers apply form-action to a form's redirects too: without JavaScript, the top-up lands on Stripe that way.
    `form-action 'self'${stripeCheckout ? ` ${STRIPE_CHECKOUT_ORIGIN}` : ""}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** A page's CSP nonce: 128 random bits. */
export const newNonce = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

/**
 * Every response, asset or page or API, leaves with these headers. The CSP allows inline scripts only with the
 * nonce of a page that set one (`c.set("nonce")`, the page handler in worker/app.ts); every other response allows
 * none. A nonce is made only for pages: 16 random bytes and their encoding were about 6% of the Worker's time on a
 * `GET /api/updates` under load, for a header no JSON answer needs.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  // A WebSocket handshake (101, /ws/updates) is left as it is: its socket lives on the Response object (workerd
  // would keep it in a copy today, but nothing promises that), and these headers mean nothing on it.
  if (c.res.status === 101) return;
  const headers = writableHeaders(c);
  const settings = config(c.env);
  headers.set(
    "Content-Security-Policy",
    contentSecurityPolicy(
      c.get("nonce"),
      Boolean(c.env.STRIPE_SECRET_KEY),
      liveMediaOrigins(settings),
      streamMediaOrigins(settings),
    ),
  );
  headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(self), microphone=(self), geolocation=()");
});

/**
 * The headers of the response to set on: its own when they can be changed (the API's, the pages', media), else
 * those of a copy put in its place (a binding's response, such as ASSETS', has immutable headers). The copy
 * replaces the response whole (`c.res = undefined` first): assigned over it, Hono's setter would copy it once
 * more to merge the two. Every response passes here, so the common case costs no copy at all. It finds out by
 * setting `X-Content-Type-Options: nosniff`, which securityHeaders puts on every response anyway.
 */
function writableHeaders(c: Context<AppEnv>): Headers {
  try {
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    return c.res.headers;
  } catch {
    const copy = new Response(c.res.body, c.res);
    c.res = undefined;
    c.res = copy;
    return copy.headers;
  }
}

/**
 * The language of each Accept-Language header already read: a browser sends the same one with every request, and
 * parsing it (split, rank, match) was 3% of a `GET /api/updates`. Headers longer than a browser's are
 * read every time, not kept.
 */
const languagesByHeader = new Map<string, LanguageCode | null>();
function languageOfHeader(header: string | undefined): LanguageCode | null {
  if (!header) return null;
  if (header.length > 200) return languageFromAcceptHeader(header);
  let language = languagesByHeader.get(header);
  if (language === undefined) setBounded(languagesByHeader, header, (language = languageFromAcceptHeader(header)), 500);
  return language;
}

/** Language per spec §9 as far as the server can see it: ?lng, then the i18nextLng cookie, then the browser. */
export const detectLanguage = createMiddleware<AppEnv>(async (c, next) => {
  const language =
    matchLanguage(c.req.query("lng")) ??
    matchLanguage(getCookie(c, LANGUAGE_COOKIE)) ??
    languageOfHeader(c.req.header("Accept-Language")) ??
    FALLBACK_LANGUAGE;
  c.set("language", language);
  const defer = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  const database = requestDatabase(c.env.DB, c.req.raw);
  c.set("database", database);
  const domain = createDomainContext(c.env, c.req.raw, language, {
    defer,
    publish: createPublisher(c.env, defer),
    db: database.db,
    mailer: c.get("mailer"),
  });
  c.set("domain", domain);
  // Everything after this answers from the viewer's place: the geo rule of every visibility check reads it.
  await inViewerPlace(domain, next);
  // After a write, the client carries the bookmark its next reads start from (read replication: its own writes).
  const bookmark = SAFE_METHODS.has(c.req.method) || c.res.status === 101 ? null : database.bookmark();
  if (bookmark && bookmark !== incomingBookmark(c.req.raw)) {
    const headers = writableHeaders(c);
    headers.set(BOOKMARK_HEADER, bookmark);
    headers.append("Set-Cookie", `${BOOKMARK_COOKIE}=${bookmark}; Path=/; Secure; HttpOnly; SameSite=Lax`);
  }
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const csrfTokenFor = (secret: string, tokenHash: string) => hmac(secret, `csrf:${tokenHash}`);
const noCsrfToken = () => Promise.resolve(null);

/**
 * Resolves the session from `Authorization: Bearer` (the API client of spec §7) or, failing that, from the
 * session cookie (server-rendered pages). A bad or revoked token simply means "no session".
 */
export const resolveSession = createMiddleware<AppEnv>(async (c, next) => {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? null;
  const cookie = readSessionCookie(c);
  const token = bearer ?? cookie;
  // Reads may reuse a session read in the last seconds; writes read it from D1 and drop the user's copies after.
  const reads = SAFE_METHODS.has(c.req.method);
  const session = token
    ? await findSession(c.get("domain").db, token, reads ? config(c.env).SESSION_CACHE_SECONDS : 0)
    : null;
  c.set("session", session);
  c.set("sessionSource", session ? (bearer ? "bearer" : "cookie") : null);
  // Only cookie sessions have a CSRF token (pages and cookie-authenticated writes); Bearer calls never make one, and
  // a cookie session's reads of the API make none either: the HMAC is made when a page or a write's check asks.
  const fromCookie = session !== null && bearer === null;
  let csrfToken: Promise<string> | undefined;
  c.set(
    "csrfToken",
    fromCookie ? () => (csrfToken ??= csrfTokenFor(config(c.env).APP_SECRET, session.tokenHash)) : noCsrfToken,
  );
  try {
    await next();
  } finally {
    if (session && !reads) forgetSessionsOf(session.user.id);
  }
});

export const CSRF_FAILED = message("Your session has expired. Please reload the page and try again.");

async function submittedCsrfToken(request: Request): Promise<string | null> {
  const header = request.headers.get("X-CSRF-Token");
  if (header) return header;
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) return null;
  try {
    const value = (await request.clone().formData()).get("_csrf");
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/**
 * Cross-site request forgery: a write from another origin is refused outright, and a write authenticated by
 * the cookie must also carry the session's CSRF token (header X-CSRF-Token, or form field _csrf).
 */
export const csrfProtection = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const origin = c.req.header("Origin");
  if (origin && origin !== new URL(c.req.url).origin) {
    return errorResponse(c, new AppError("forbidden", CSRF_FAILED));
  }
  if (
    c.get("sessionSource") === "cookie" &&
    !safeEqualText((await submittedCsrfToken(c.req.raw)) ?? "", (await c.get("csrfToken")()) ?? "-")
  ) {
    return errorResponse(c, new AppError("forbidden", CSRF_FAILED));
  }
  return next();
});

/**
 * For routes that need a signed-in user: past it the session is there, and the route's `c.get("session")` is
 * typed so (@hono/zod-openapi hands a route the variables its middleware declares).
 */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("session")) return errorResponse(c, new AppError("unauthenticated", message("Unauthenticated.")));
  return next();
}) as unknown as MiddlewareHandler<SignedInEnv>;
