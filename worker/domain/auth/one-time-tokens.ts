import { randomToken, sha256Hex } from "../shared/crypto";
import { isoIn, isoNow, MINUTE } from "../shared/time";

export type TokenPurpose = "magic_login" | "password_reset";

const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  magic_login: 15 * MINUTE,
  password_reset: 60 * MINUTE,
};

/**
 * Issues a single-use token for an emailed link; only its hash is stored. It is issued only while `email` is still
 * the account's address, so a link cannot be made for an address the account has just left: changing the email or
 * the password spends every token stored before (`spendTokensStatement`), and this one comes either before (and is
 * spent) or after (and is not made). Null when the address moved meanwhile: send nothing.
 */
export async function issueToken(
  db: D1Database,
  user: { id: number; email: string },
  purpose: TokenPurpose,
): Promise<string | null> {
  const token = randomToken();
  const issued = await db
    .prepare(
      `INSERT INTO one_time_tokens (user_id, purpose, token_hash, expires_at, created_at)
       SELECT id, ?, ?, ?, ? FROM users WHERE id = ? AND email = ?`,
    )
    .bind(purpose, await sha256Hex(token), isoIn(TOKEN_LIFETIME_MS[purpose]), isoNow(), user.id, user.email)
    .run();
  return issued.meta.changes === 1 ? token : null;
}

/**
 * Spends every outstanding link of an account (magic sign-in, password reset): run in the batch that changes what
 * the links were sent on the strength of, the address or the password.
 */
export const spendTokensStatement = (db: D1Database, userId: number, at: string) =>
  db.prepare("UPDATE one_time_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL").bind(at, userId);

/** The user a live token belongs to, without using it up (for showing the page the link opens). */
export async function peekToken(db: D1Database, token: string, purpose: TokenPurpose): Promise<number | null> {
  const row = await db
    .prepare(
      "SELECT user_id FROM one_time_tokens WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?",
    )
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
