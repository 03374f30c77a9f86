import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { createSession } from "../auth/sessions";
import { consumeTokenStatement, issueToken } from "../auth/one-time-tokens";
import { emailLinksKey, LIMITS, RateLimiter } from "../auth/rate-limit";
import { twoStepChallengeFor, type SignInResult } from "../auth/two-step-challenge";
import { magicLinkMail } from "../mail/templates";
import type { DomainContext } from "../context";
import { assertNotSuspended } from "../moderation/suspend-user";
import { INVALID_LINK } from "./email-verification";
import { findUserByEmail, findUserById } from "./users";

/**
 * Emails a one-time sign-in link. The answer never says whether the address has an account: the per-address
 * limit, there so that nobody can flood someone's inbox, counts every address before anyone looks it up.
 */
export async function requestMagicLink(ctx: DomainContext, email: string): Promise<void> {
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`email-links:ip:${ctx.ip}`, LIMITS.emailLinksPerIp);
  await limiter.hit(emailLinksKey(email), LIMITS.emailLinksPerAddress);
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = await issueToken(ctx.db, user, "magic_login");
  if (!token) return;
  await ctx.mailer.send(magicLinkMail(ctx.t, user.email, user.name, `${ctx.origin}/login/withToken?token=${token}`));
}

/**
 * Uses the link up and opens a session (or, with two-step sign-in on, answers its challenge, as signIn does).
 * Clicking the link proves the address, so it also verifies it.
 */
export async function signInWithMagicLink(
  ctx: DomainContext,
  token: string,
  trustedDevice: string | null = null,
): Promise<SignInResult> {
  const consumed = await (await consumeTokenStatement(ctx.db, token, "magic_login")).first<{ user_id: number }>();
  const user = consumed ? await findUserById(ctx.db, consumed.user_id) : null;
  if (!user) throw new AppError("forbidden", INVALID_LINK);
  assertNotSuspended(user);
  let signedIn = user;
  if (!user.email_verified_at) {
    const at = isoNow();
    await ctx.db
      .prepare("UPDATE users SET email_verified_at = ?, updated_at = ? WHERE id = ? AND email_verified_at IS NULL")
      .bind(at, at, user.id)
      .run();
    signedIn = { ...user, email_verified_at: at };
  }
  const twoStep = await twoStepChallengeFor(ctx.db, user.id, trustedDevice);
  if (twoStep) return { twoStep };
  return { user: signedIn, token: await createSession(ctx, user.id) };
}
