import { randomToken, sha256Hex } from "../shared/crypto";
import { DAY, isoIn, isoNow } from "../shared/time";
import type { UserRow } from "../accounts/users";

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

export async function findSession(db: D1Database, token: string): Promise<CurrentSession | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const tokenHash = await sha256Hex(token);
  const row = await db
    .prepare(
      `SELECT s.id AS session_id, s.expires_at AS session_expires_at, u.*
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = ? AND s.expires_at > ?`,
    )
    .bind(tokenHash, isoNow())
    .first<UserRow & { session_id: number; session_expires_at: string }>();
  if (!row) return null;
  const { session_id: sessionId, session_expires_at: expiresAt, ...user } = row;
  if (Date.parse(expiresAt) - Date.now() < SESSION_LIFETIME_MS / 2) {
    await db.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?").bind(isoIn(SESSION_LIFETIME_MS), sessionId).run();
  }
  return { sessionId, tokenHash, user };
}

export const revokeSession = (db: D1Database, sessionId: number) =>
  db.prepare("DELETE FROM sessions WHERE id = ?").bind(sessionId).run();

/** The cron's sweep: sessions past their lifetime are gone (finding one already refuses it). */
export async function deleteExpiredSessions(db: D1Database): Promise<number> {
  const { meta } = await db.prepare("DELETE FROM sessions WHERE expires_at < ?").bind(isoNow()).run();
  return meta.changes ?? 0;
}
