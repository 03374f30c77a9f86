import { randomToken, sha256Hex } from "../shared/crypto";
import { setBounded } from "../shared/bounded-map";
import { DAY, isoIn, isoNow } from "../shared/time";
import type { UserRow } from "../accounts/users";
import type { SessionCheck } from "../../db/request-database";
import type { Publish } from "../events";

/** Sessions last 30 days and slide forward when used in their second half. */
export const SESSION_LIFETIME_MS = 30 * DAY;

export interface CurrentSession {
  sessionId: number;
  tokenHash: string;
  user: UserRow;
}

/** Opens a session; the raw token goes to the client once and only its SHA-256 is stored. */
export async function createSession(db: D1Database, userId: number, userAgent: string): Promise<string> {
  const token = randomToken();
  await db
    .prepare("INSERT INTO sessions (user_id, token_hash, created_at, expires_at, user_agent) VALUES (?, ?, ?, ?, ?)")
    .bind(userId, await sha256Hex(token), isoNow(), isoIn(SESSION_LIFETIME_MS), userAgent)
    .run();
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
 * - writes (any method but GET and HEAD) never act on a copy D1 has not confirmed: most read the session and the
 *   user from D1 before anything else, and the copy of that user is dropped when the write ends, so a change to the
 *   user's own row (email verified, role, the Home mark) is read fresh by their next request in this isolate; the
 *   hot writes of worker/http/session-check.ts (tips, messages, likes, follows and more) start from the copy and
 *   confirm it in their first batch of reads, before they write or answer (`findSessionToCheck`);
 * - a copy past the session's own expiry is never used.
 */
type Copy = { session: CurrentSession; expiresAt: number; until: number };
const cached = new Map<string, Copy>();

export function forgetSessionsOf(userId: number): void {
  for (const [hash, entry] of cached) if (entry.session.user.id === userId) cached.delete(hash);
}

const SESSION_QUERY = `SELECT s.id AS session_id, s.expires_at AS session_expires_at, u.*
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = ? AND s.expires_at > ?`;
type SessionRow = UserRow & { session_id: number; session_expires_at: string };

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

/** Reads the session from D1 (sliding it forward in its second half) and keeps a copy for `cacheSeconds`. */
async function readSession(db: D1Database, tokenHash: string, cacheSeconds: number): Promise<CurrentSession | null> {
  const now = Date.now();
  const row = await db.prepare(SESSION_QUERY).bind(tokenHash, isoNow()).first<SessionRow>();
  if (!row) {
    cached.delete(tokenHash);
    return null;
  }
  const { session_id: sessionId, session_expires_at: expiresAt, ...user } = row;
  if (Date.parse(expiresAt) - now < SESSION_LIFETIME_MS / 2) {
    await db.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?").bind(isoIn(SESSION_LIFETIME_MS), sessionId).run();
  }
  const session = { sessionId, tokenHash, user };
  if (cacheSeconds > 0) {
    setBounded(cached, tokenHash, { session, expiresAt: Date.parse(expiresAt), until: now + cacheSeconds * 1000 }, CACHE_CAPACITY);
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
  const { results } = await ctx.db.prepare("DELETE FROM sessions WHERE expires_at < ? RETURNING id, user_id").bind(isoNow()).all<{ id: number; user_id: number }>();
  const byUser = new Map<number, number[]>();
  for (const row of results) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.id]);
  for (const [userId, sessionIds] of byUser) ctx.publish({ type: "SessionsEnded", userId, sessionIds });
  return results.length;
}

/** Why a copy was not confirmed: the session has ended, or the user's row changed since the copy was read. */
export class SessionCheckFailed extends Error {
  constructor(readonly reason: "ended" | "changed") {
    super(`session check failed: ${reason}`);
  }
}

/**
 * A user's columns that change without the user doing anything the copy's reader decides on (counters kept by
 * triggers, the Home mark): a copy that differs from D1 only in them still stands.
 */
const DRIFTING = new Set(["follower_count", "following_count", "subscriber_count", "home_seen_at"]);

/**
 * For a write whose session check rides its first batch (worker/http/session-check.ts): the isolate's copy of the
 * session, if it has one within `cacheSeconds`, with the read that confirms it (worker/db/request-database.ts,
 * `SessionCheck`); without a copy, the session read from D1 (and kept), with no check to make. The check fails when
 * the session has ended (revoked, expired) or when the user's row differs from the copy in anything but the
 * drifting counters; it renews the copy when it passes (but in the session's second half, when the next request's
 * read is to slide the session forward).
 */
export async function findSessionToCheck(
  db: D1Database,
  token: string,
  cacheSeconds: number,
): Promise<{ session: CurrentSession; check: SessionCheck | null } | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const tokenHash = await tokenHashOf(token);
  const copy = cacheSeconds > 0 ? copyOf(tokenHash) : null;
  if (!copy) {
    const session = await readSession(db, tokenHash, cacheSeconds);
    return session ? { session, check: null } : null;
  }
  const check = (result: D1Result) => {
    const { session_id: sessionId, session_expires_at: expiresAt, ...user } = (result.results[0] ?? {}) as Partial<SessionRow>;
    if (sessionId !== copy.session.sessionId || expiresAt === undefined) {
      cached.delete(tokenHash);
      throw new SessionCheckFailed("ended");
    }
    const copied = copy.session.user as unknown as Record<string, unknown>;
    const changed = Object.entries(user).some(([column, value]) => !DRIFTING.has(column) && copied[column] !== value);
    if (changed) {
      cached.delete(tokenHash);
      throw new SessionCheckFailed("changed");
    }
    // A session in its second half is confirmed but not kept: the next request reads it, which slides it forward.
    if (Date.parse(expiresAt) - Date.now() < SESSION_LIFETIME_MS / 2) cached.delete(tokenHash);
    else cached.set(tokenHash, { session: { ...copy.session, user: user as UserRow }, expiresAt: Date.parse(expiresAt), until: Date.now() + cacheSeconds * 1000 });
  };
  return { session: copy.session, check: { query: SESSION_QUERY, params: [tokenHash, isoNow()], check } };
}
