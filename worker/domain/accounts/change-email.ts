import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { message } from "@shared/messages";
import { emailLinksKey, LIMITS, RateLimiter } from "../auth/rate-limit";
import { changeEmailMail } from "../mail/templates";
import type { DomainContext } from "../context";
import type { EmailChangeLink } from "@shared/contracts/accounts";
import { emailChangeUrl, isValidEmailChangeLink } from "./signed-links";
import { confirmPassword } from "./confirm-password";
import { EMAIL_TAKEN } from "./sign-up";
import { INVALID_LINK } from "./email-verification";
import { findUserByEmail, findUserById, type UserRow } from "./users";
import { forgetSessionsOf } from "../auth/sessions";
import { spendTokensStatement } from "../auth/one-time-tokens";

/**
 * Sends a confirmation link to the new address; the account keeps its old address until it is followed. Limited
 * per IP and per account (whatever addresses it tries, "taken" or not) and per new address (its inbox, like every
 * emailed link).
 */
export async function requestEmailChange(
  ctx: DomainContext,
  user: UserRow,
  newEmail: string,
  password: string,
): Promise<void> {
  await confirmPassword(ctx, user, password);
  if (newEmail === user.email.toLowerCase()) throw fieldError("email", message("This is already your email address."));
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`email-links:ip:${ctx.ip}`, LIMITS.emailLinksPerIp);
  await limiter.hit(`email-links:account:${user.id}`, LIMITS.emailLinksPerAccount);
  // After the limits: an account must not be a way to learn, without limit, which addresses have accounts.
  if (await findUserByEmail(ctx.db, newEmail)) throw fieldError("email", EMAIL_TAKEN);
  await limiter.hit(emailLinksKey(newEmail), LIMITS.emailLinksPerAddress);
  await ctx.mailer.send(changeEmailMail(ctx.t, newEmail, user.name, await emailChangeUrl(ctx, user, newEmail)));
}

/**
 * Applies a confirmed change; following the link proves the new address, so it counts as verified. Every link sent
 * to the old address (a password reset, a magic sign-in) is spent in the same batch: whoever can still read the old
 * mailbox must not take the account back through one.
 */
export async function confirmEmailChange(ctx: DomainContext, link: EmailChangeLink): Promise<UserRow> {
  const user = await findUserById(ctx.db, link.id);
  if (!user || !(await isValidEmailChangeLink(ctx, user, link))) throw new AppError("forbidden", INVALID_LINK);
  if (await findUserByEmail(ctx.db, link.email)) throw fieldError("email", EMAIL_TAKEN);
  const at = isoNow();
  try {
    await ctx.db.batch([
      ctx.db
        .prepare("UPDATE users SET email = ?, email_verified_at = ?, updated_at = ? WHERE id = ? AND email = ?")
        .bind(link.email, at, at, user.id, user.email),
      spendTokensStatement(ctx.db, user.id, at),
    ]);
  } catch (error) {
    if (String(error).includes("UNIQUE")) throw fieldError("email", EMAIL_TAKEN);
    throw error;
  }
  forgetSessionsOf(user.id);
  return { ...user, email: link.email, email_verified_at: at };
}
