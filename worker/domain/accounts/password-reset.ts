import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { hashPassword, passwordHashParams } from "../auth/password";
import { issueToken } from "../auth/one-time-tokens";
import { sha256Hex } from "../shared/crypto";
import { emailLinksKey, LIMITS, RateLimiter } from "../auth/rate-limit";
import { passwordResetMail } from "../mail/templates";
import type { DomainContext } from "../context";
import { INVALID_LINK } from "./email-verification";
import { findUserByEmail } from "./users";

/**
 * "Forgot password": like the magic link, the answer is the same whether or not the address is known, up to
 * and past the limit, which counts the address before anyone looks it up.
 */
export async function requestPasswordReset(ctx: DomainContext, email: string): Promise<void> {
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`password-reset:ip:${ctx.ip}`, LIMITS.passwordResetPerIp);
  await limiter.hit(emailLinksKey(email), LIMITS.emailLinksPerAddress);
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = await issueToken(ctx.db, user, "password_reset");
  if (!token) return;
  await ctx.mailer.send(passwordResetMail(ctx.t, user.email, user.name, `${ctx.origin}/reset-password/${token}`));
}

/**
 * Uses the token, sets the new password and ends every session of the account in one atomic batch. The later
 * statements find the user through the token row the first one just stamped, so a spent, expired or unknown
 * token makes the whole batch change nothing.
 */
export async function resetPassword(ctx: DomainContext, token: string, newPassword: string): Promise<void> {
  const passwordHash = await hashPassword(newPassword, passwordHashParams(ctx.config));
  const at = isoNow();
  const tokenHash = await sha256Hex(token);
  const owner =
    "(SELECT user_id FROM one_time_tokens WHERE token_hash = ? AND purpose = 'password_reset' AND used_at = ?)";
  const [consumed, , ended] = await ctx.db.batch<{ user_id: number; id: number }>([
    ctx.db
      .prepare(
        `UPDATE one_time_tokens SET used_at = ?1
         WHERE token_hash = ?2 AND purpose = 'password_reset' AND used_at IS NULL AND expires_at > ?1 RETURNING user_id`,
      )
      .bind(at, tokenHash),
    ctx.db
      .prepare(`UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ${owner}`)
      .bind(passwordHash, at, tokenHash, at),
    ctx.db.prepare(`DELETE FROM sessions WHERE user_id = ${owner} RETURNING id`).bind(tokenHash, at),
    // The rest of the account's links (spendTokensStatement's rule, the user found through the token).
    ctx.db
      .prepare(`UPDATE one_time_tokens SET used_at = ? WHERE used_at IS NULL AND user_id = ${owner}`)
      .bind(at, tokenHash, at),
  ]);
  const reset = consumed?.results[0];
  if (!reset) throw new AppError("forbidden", INVALID_LINK);
  // Every session is gone; so are the sockets they opened.
  ctx.publish({
    type: "SessionsEnded",
    userId: reset.user_id,
    sessionIds: (ended?.results ?? []).map((row) => row.id),
  });
}
