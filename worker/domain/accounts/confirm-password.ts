import { verifyPassword } from "../auth/password";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import type { DomainContext } from "../context";
import { fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import type { UserRow } from "./users";

const PASSWORD_REQUIRED = message("Please enter your password");
const WRONG_PASSWORD = message("Wrong password");

/**
 * Re-checks the password of a signed-in user before a sensitive action (spec §5: changing the password or the
 * email, a withdrawal, a payout method). Wrong passwords count per account as failed sign-ins do, so a stolen
 * session cannot be used to guess the password: past the limit every re-check answers 429, even a right one.
 */
export async function confirmPassword(
  ctx: Pick<DomainContext, "db" | "config">,
  user: Pick<UserRow, "id" | "password_hash">,
  password: string | undefined,
): Promise<void> {
  if (!password) throw fieldError("password", PASSWORD_REQUIRED);
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  const key = `password-recheck:account:${user.id}`;
  await limiter.check(key, LIMITS.passwordRecheckFailuresPerAccount);
  if (await verifyPassword(password, user.password_hash)) return;
  await limiter.hit(key, LIMITS.passwordRecheckFailuresPerAccount);
  throw fieldError("password", WRONG_PASSWORD);
}
