import { message } from "@shared/messages";
import { nowMs } from "@shared/clock";
import type { DomainContext } from "../context";
import type { UserRow } from "../accounts/users";
import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { LIMITS, RateLimiter } from "./rate-limit";
import { twoStepFailuresKey } from "./second-step";
import { matchTotp } from "./totp";
import { findTwoStep, normaliseCode, replaceRecoveryCodes, WRONG_CODE } from "./two-step-codes";
import { decryptSecret } from "./two-step-secret";
import { ALREADY_ON } from "./begin-two-step";

const NOT_STARTED = message("Start again: scan the new QR code, then enter its code.");

/**
 * Turns two-step sign-in on once the person shows a code from the secret beginTwoStep gave them (so that an app
 * that read it wrong cannot lock them out), and answers the ten recovery codes, shown only now.
 */
export async function turnOnTwoStep(
  ctx: Pick<DomainContext, "db" | "config">,
  user: Pick<UserRow, "id">,
  code: string,
): Promise<string[]> {
  const row = await findTwoStep(ctx.db, user.id);
  if (row?.enabled_at) throw new AppError("conflict", ALREADY_ON);
  const secret = row ? await decryptSecret(ctx.config.APP_SECRET, row.secret) : null;
  if (!row || !secret) throw fieldError("code", NOT_STARTED);
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  const key = twoStepFailuresKey(user.id);
  await limiter.check(key, LIMITS.twoStepFailuresPerAccount);
  const step = await matchTotp(secret, normaliseCode(code), nowMs(), row.last_step);
  if (step === null) {
    await limiter.hit(key, LIMITS.twoStepFailuresPerAccount);
    throw fieldError("code", WRONG_CODE);
  }
  const { codes, statements } = await replaceRecoveryCodes(ctx.db, user.id);
  const [turnedOn] = await ctx.db.batch([
    ctx.db
      .prepare(
        "UPDATE two_step SET enabled_at = ?, last_step = ? WHERE user_id = ? AND enabled_at IS NULL AND secret = ?",
      )
      .bind(isoNow(), step, user.id, row.secret),
    ...statements,
  ]);
  if (turnedOn!.meta.changes !== 1) throw fieldError("code", NOT_STARTED);
  return codes;
}
