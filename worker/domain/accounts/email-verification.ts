import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { emailLinksKey, LIMITS, RateLimiter } from "../auth/rate-limit";
import { verifyEmailMail } from "../mail/templates";
import type { DomainContext } from "../context";
import type { EmailVerificationLink } from "@shared/contracts/accounts";
import { emailVerificationUrl, isValidVerificationLink } from "./signed-links";
import { findUserById, type UserRow } from "./users";
import { forgetSessionsOf } from "../auth/sessions";

export const INVALID_LINK = message("This link is invalid or has expired.");

export async function sendVerificationEmail(ctx: DomainContext, user: UserRow): Promise<void> {
  const link = await emailVerificationUrl(ctx, user);
  await ctx.mailer.send(verifyEmailMail(ctx.t, user.email, user.name, link));
}

/** "Resend" on the verification notice: limited per address and per IP, a no-op once verified. */
export async function resendVerificationEmail(ctx: DomainContext, user: UserRow): Promise<void> {
  if (user.email_verified_at) return;
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`email-links:ip:${ctx.ip}`, LIMITS.emailLinksPerIp);
  await limiter.hit(emailLinksKey(user.email), LIMITS.emailLinksPerAddress);
  await sendVerificationEmail(ctx, user);
}

/** Marks the address verified. Following a valid link twice is harmless; a bad or stale link is refused. */
export async function verifyEmail(ctx: DomainContext, link: EmailVerificationLink): Promise<UserRow> {
  const user = await findUserById(ctx.db, link.id);
  if (!user || !(await isValidVerificationLink(ctx, user, link))) throw new AppError("forbidden", INVALID_LINK);
  if (!user.email_verified_at) {
    const at = isoNow();
    await ctx.db
      .prepare("UPDATE users SET email_verified_at = ?, updated_at = ? WHERE id = ? AND email = ?")
      .bind(at, at, user.id, user.email)
      .run();
    // The link may be opened without the session (another device): the session copies must not keep "unverified".
    forgetSessionsOf(user.id);
    return { ...user, email_verified_at: at };
  }
  return user;
}
