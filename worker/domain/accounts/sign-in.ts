import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { burnPasswordCheck, passwordHashParams, verifyPassword } from "../auth/password";
import { createSession, revokeSession } from "../auth/sessions";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import { twoStepChallengeFor, type SignInResult } from "../auth/two-step-challenge";
import type { DomainContext } from "../context";
import { assertNotSuspended } from "../moderation/suspend-user";
import type { SignInInput } from "@shared/contracts/accounts";
import { findUserByLogin } from "./users";

const BAD_CREDENTIALS = message("The provided credentials are incorrect");

/**
 * Email or username plus password. Every attempt counts against the IP. Failures count against the account
 * (its id, so its username and email share the count; an unknown login counts under its own text, so that it
 * answers exactly as an account would) twice: from this address, so that a stranger's failures lock out only
 * the stranger's address, and from anywhere, a slower limit that stops a guesser spread over many addresses.
 * With two-step sign-in on, a right password answers a challenge instead of a session, unless `trustedDevice` (the
 * token of the device's cookie) is trusted.
 */
export async function signIn(
  ctx: DomainContext,
  input: SignInInput,
  trustedDevice: string | null = null,
): Promise<SignInResult> {
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`signin:ip:${ctx.ip}`, LIMITS.signInPerIp);
  const user = await findUserByLogin(ctx.db, input.login);
  const account = user ? `user:${user.id}` : `login:${input.login.toLowerCase()}`;
  const failureLimits = [
    { key: `signin:account-ip:${account}:${ctx.ip}`, limit: LIMITS.signInFailuresPerAccountAndIp },
    { key: `signin:account:${account}`, limit: LIMITS.signInFailuresPerAccount },
  ];
  for (const { key, limit } of failureLimits) await limiter.check(key, limit);

  const valid = user
    ? await verifyPassword(input.password, user.password_hash)
    : (await burnPasswordCheck(input.password, passwordHashParams(ctx.config)), false);
  if (!user || !valid) {
    for (const { key, limit } of failureLimits) await limiter.hit(key, limit);
    throw new AppError("validation", BAD_CREDENTIALS, { login: [BAD_CREDENTIALS] });
  }
  assertNotSuspended(user);
  const twoStep = await twoStepChallengeFor(ctx.db, user.id, trustedDevice);
  if (twoStep) return { twoStep };
  return { user, token: await createSession(ctx, user.id) };
}

/** Ends one session, and closes the real-time sockets it opened (they carry only "refetch" signals anyway). */
export async function signOut(ctx: DomainContext, session: { sessionId: number; user: { id: number } }) {
  await revokeSession(ctx.db, session.sessionId);
  ctx.publish({ type: "SessionsEnded", userId: session.user.id, sessionIds: [session.sessionId] });
}
