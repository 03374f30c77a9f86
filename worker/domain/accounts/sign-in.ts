import { AppError } from "../shared/errors";
import { message } from "../shared/messages";
import { burnPasswordCheck, verifyPassword } from "../auth/password";
import { createSession, revokeSession } from "../auth/sessions";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import type { DomainContext } from "../context";
import { assertNotSuspended } from "../moderation/suspend-user";
import type { SignInInput } from "./rules";
import { findUserByLogin, type UserRow } from "./users";

export const BAD_CREDENTIALS = message("The provided credentials are incorrect");

/**
 * Email or username plus password. Every attempt counts against the IP; failures count against the account,
 * so that guessing one person's password is slow from anywhere.
 */
export async function signIn(ctx: DomainContext, input: SignInInput): Promise<{ user: UserRow; token: string }> {
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  const accountKey = `signin:account:${input.login.toLowerCase()}`;
  await limiter.hit(`signin:ip:${ctx.ip}`, LIMITS.signInPerIp);
  await limiter.check(accountKey, LIMITS.signInFailuresPerAccount);

  const user = await findUserByLogin(ctx.db, input.login);
  const valid = user ? await verifyPassword(input.password, user.password_hash) : (await burnPasswordCheck(input.password), false);
  if (!user || !valid) {
    await limiter.hit(accountKey, LIMITS.signInFailuresPerAccount);
    throw new AppError("validation", BAD_CREDENTIALS, { login: [BAD_CREDENTIALS] });
  }
  assertNotSuspended(user);
  return { user, token: await createSession(ctx.db, user.id, ctx.userAgent) };
}

/** Ends one session, and closes the real-time sockets it opened (they carry only "refetch" signals anyway). */
export async function signOut(ctx: DomainContext, session: { sessionId: number; user: { id: number } }) {
  await revokeSession(ctx.db, session.sessionId);
  ctx.publish({ type: "SessionsEnded", userId: session.user.id, sessionIds: [session.sessionId] });
}
