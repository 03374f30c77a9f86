import { randomToken, sha256Hex } from "../shared/crypto";
import { isoIn, isoNow, MINUTE } from "../shared/time";

export type TokenPurpose = "magic_login" | "password_reset";

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  magic_login: 15 * MINUTE,
  password_reset: 60 * MINUTE,
};

/** Issues a single-use token for an emailed link; only its hash is stored. */
export async function issueToken(db: D1Database, userId: number, purpose: TokenPurpose): Promise<string> {
  const token = randomToken();
  await db
    .prepare("INSERT INTO one_time_tokens (user_id, purpose, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(userId, purpose, await sha256Hex(token), isoIn(TOKEN_LIFETIME_MS[purpose]), isoNow())
    .run();
  return token;
}

/** The user a live token belongs to, without using it up (for showing the page the link opens). */
export async function peekToken(db: D1Database, token: string, purpose: TokenPurpose): Promise<number | null> {
  const row = await db
    .prepare("SELECT user_id FROM one_time_tokens WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?")
    .bind(await sha256Hex(token), purpose, isoNow())
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}

/**
 * Uses a token up, atomically: of two concurrent requests with the same token exactly one gets the user id,
 * because the guarded UPDATE matches the row only while used_at is still null.
 */
export async function consumeTokenStatement(db: D1Database, token: string, purpose: TokenPurpose) {
  return db
    .prepare(
      `UPDATE one_time_tokens SET used_at = ?1
       WHERE token_hash = ?2 AND purpose = ?3 AND used_at IS NULL AND expires_at > ?1
       RETURNING user_id`,
    )
    .bind(isoNow(), await sha256Hex(token), purpose);
}

/** The cron's sweep: links past their lifetime are gone (using one already refuses it). */
export async function deleteExpiredTokens(db: D1Database): Promise<number> {
  const { meta } = await db.prepare("DELETE FROM one_time_tokens WHERE expires_at < ?").bind(isoNow()).run();
  return meta.changes ?? 0;
}
