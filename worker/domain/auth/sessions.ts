import { randomToken, sha256Hex } from "../shared/crypto";
import { setBounded } from "../shared/bounded-map";
import { DAY, HOUR, isoIn, isoNow } from "../shared/time";
import { nowMs } from "@shared/clock";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import type { Publish } from "../events";
import { deviceOfUserAgent } from "../devices/user-agent";
import { mailNewDevice } from "../devices/mail-new-device";

/** Sessions last 30 days and slide forward when used in their second half. */
export const SESSION_LIFETIME_MS = 30 * DAY;
/** How precisely a session's last use is kept: it is written when a read of the session finds it older. */
const LAST_ACTIVE_STEP_MS = HOUR;

export interface CurrentSession {
  sessionId: number;
  tokenHash: string;
  user: UserRow;
}

/**
 * Opens a session on the request's device; the raw token goes to the client once and only its SHA-256 is stored.
 * The device (browser, system, country) joins the account's known devices in the same batch; one the account
 * had not signed in from mails the owner, unless it is the account's first (its sign-up).
 */
export async function createSession(ctx: DomainContext, userId: number): Promise<string> {
  const token = randomToken();
  const at = isoNow();
  const device = deviceOfUserAgent(ctx.userAgent);
  const [owner, added] = await ctx.db.batch([
    ctx.db
      .prepare(
        "SELECT email, name, EXISTS (SELECT 1 FROM known_devices WHERE user_id = users.id) AS has_known FROM users WHERE id = ?",
      )
      .bind(userId),
    ctx.db
      .prepare(
        `INSERT INTO known_devices (user_id, browser, system, country, first_seen_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING RETURNING user_id`,
      )
      .bind(userId, device.browser ?? "", device.system ?? "", ctx.country, at),
    ctx.db
      .prepare(
        `INSERT INTO sessions (user_id, token_hash, created_at, last_active_at, expires_at, user_agent, country, region)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(userId, await sha256Hex(token), at, at, isoIn(SESSION_LIFETIME_MS), ctx.userAgent, ctx.country, ctx.region),
  ]);
  const known = owner!.results[0] as { email: string; name: string; has_known: number } | undefined;
  if (known?.has_known && added!.results.length > 0) mailNewDevice(ctx, known, device, at);
  return token;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The hash of each session token this isolate has seen lately: every request that carries a token looks its session
 * up by the token's SHA-256, and hashing it (WebCrypto's digest, then hex) was about 3% of a `GET /api/updates` under
 * load. The token already passes through the isolate with each request; keeping it beside its hash changes nothing
 * about what is stored (D1 keeps the hash only). Bounded like the copies below: past the capacity, the oldest goes.
 */
const tokenHashes = new Map<string, string>();
/** How many token hashes, and how many session copies (below), an isolate keeps. */
const CACHE_CAPACITY = 10_000;

async function tokenHashOf(token: string): Promise<string> {
  let hash = tokenHashes.get(token);
  if (hash === undefined) {
    hash = await sha256Hex(token);
    setBounded(tokenHashes, token, hash, CACHE_CAPACITY);
  }
  return hash;
}

/**
 * The sessions this isolate has read lately, by token hash: a page or an API read (GET) reuses one for up to
 * `cacheSeconds` instead of asking D1 again (one round trip fewer on every read). How revocation still takes effect
 * within seconds:
 * - every revocation publishes SessionsEnded, and the publisher calls forgetSessionsOf at once, so in the isolate
 *   that revoked, the next request is refused;
 * - another isolate keeps its copy at most `cacheSeconds` (5 in production, SESSION_CACHE_SECONDS);
 * - writes (any method but GET, HEAD and OPTIONS) never act on a copy: they read the session and the user from D1
 *   before anything else, and the copy of that user is dropped when the write ends, so a change to the
 *   user's own row (email verified, role, the Home mark) is read fresh by their next request in this isolate;
 * - a copy past the session's own expiry is never used.
 */
type Copy = { session: CurrentSession; expiresAt: number; until: number };
const cached = new Map<string, Copy>();

export function forgetSessionsOf(userId: number): void {
  for (const [hash, entry] of cached) if (entry.session.user.id === userId) cached.delete(hash);
}

const SESSION_QUERY = `SELECT s.id AS session_id, s.expires_at AS session_expires_at, s.last_active_at AS session_last_active_at, u.*
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = ? AND s.expires_at > ?`;
type SessionRow = UserRow & { session_id: number; session_expires_at: string; session_last_active_at: string };

export async function findSession(db: D1Database, token: string, cacheSeconds = 0): Promise<CurrentSession | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const tokenHash = await tokenHashOf(token);
  return (cacheSeconds > 0 ? copyOf(tokenHash)?.session : null) ?? readSession(db, tokenHash, cacheSeconds);
}

/** The isolate's copy of a session, while it is within its seconds and its session's expiry. */
function copyOf(tokenHash: string): Copy | null {
  const hit = cached.get(tokenHash);
  const now = Date.now();
  return hit && hit.until > now && hit.expiresAt > now ? hit : null;
}

/**
 * Reads the session from D1 and keeps a copy for `cacheSeconds`. The same read slides the session forward in its
 * second half and moves its last use on when it is LAST_ACTIVE_STEP_MS old: a write at most once an hour per
 * session, on a read that happens anyway (and never on a request served from the copy).
 */
async function readSession(db: D1Database, tokenHash: string, cacheSeconds: number): Promise<CurrentSession | null> {
  const now = Date.now();
  const row = await db.prepare(SESSION_QUERY).bind(tokenHash, isoNow()).first<SessionRow>();
  if (!row) {
    cached.delete(tokenHash);
    return null;
  }
  const { session_id: sessionId, session_expires_at: expiresAt, session_last_active_at: lastActiveAt, ...user } = row;
  const at = nowMs();
  const slides = Date.parse(expiresAt) - at < SESSION_LIFETIME_MS / 2;
  // Written as "not recent" so that a time that does not parse counts as old and is written again.
  if (slides || !(at - Date.parse(lastActiveAt) < LAST_ACTIVE_STEP_MS)) {
    // max(): a request that slid the expiry meanwhile is never undone by one that read the row before it.
    await db
      .prepare("UPDATE sessions SET last_active_at = ?, expires_at = max(expires_at, ?) WHERE id = ?")
      .bind(isoNow(), slides ? isoIn(SESSION_LIFETIME_MS) : expiresAt, sessionId)
      .run();
  }
  const session = { sessionId, tokenHash, user };
  if (cacheSeconds > 0) {
    setBounded(
      cached,
      tokenHash,
      { session, expiresAt: Date.parse(expiresAt), until: now + cacheSeconds * 1000 },
      CACHE_CAPACITY,
    );
  }
  return session;
}

export const revokeSession = (db: D1Database, sessionId: number) =>
  db.prepare("DELETE FROM sessions WHERE id = ?").bind(sessionId).run();

/**
 * The cron's sweep: sessions past their lifetime are gone (finding one already refuses it), and the sockets they
 * opened are closed (SessionsEnded, per user).
 */
export async function deleteExpiredSessions(ctx: { db: D1Database; publish: Publish }): Promise<number> {
  const { results } = await ctx.db
    .prepare("DELETE FROM sessions WHERE expires_at < ? RETURNING id, user_id")
    .bind(isoNow())
    .all<{ id: number; user_id: number }>();
  const byUser = new Map<number, number[]>();
  for (const row of results) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.id]);
  for (const [userId, sessionIds] of byUser) ctx.publish({ type: "SessionsEnded", userId, sessionIds });
  return results.length;
}
