import type { DomainContext } from "../context";
import type { UserRow } from "../accounts/users";
import { fieldError } from "../shared/errors";
import { LIMITS, RateLimiter } from "./rate-limit";
import { CODE_REQUIRED } from "@shared/contracts/two-step";
import { findTwoStep, spendAppOrRecoveryCode, WRONG_CODE } from "./two-step-codes";

/** Wrong second-step codes of one account, at sign-in and at a re-check alike. */
export const twoStepFailuresKey = (userId: number) => `two-step:account:${userId}`;

/**
 * Re-checks the second step of a signed-in user before a sensitive action (turning two-step sign-in off, deleting
 * the account): with two-step sign-in on, `code` must be a current authenticator code or an unused recovery code
 * (a wrong one counts against the account's guess limit; the error is on the `code` field). With it off, nothing.
 */
export async function confirmSecondStep(
  ctx: Pick<DomainContext, "db" | "config">,
  user: Pick<UserRow, "id">,
  code: string | undefined,
): Promise<void> {
  const row = await findTwoStep(ctx.db, user.id);
  if (!row?.enabled_at) return;
  if (!code?.trim()) throw fieldError("code", CODE_REQUIRED);
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  const key = twoStepFailuresKey(user.id);
  await limiter.check(key, LIMITS.twoStepFailuresPerAccount);
  if (await spendAppOrRecoveryCode(ctx, user.id, row, code)) return;
  await limiter.hit(key, LIMITS.twoStepFailuresPerAccount);
  throw fieldError("code", WRONG_CODE);
}
