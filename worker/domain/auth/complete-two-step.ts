import { message } from "@shared/messages";
import type { TwoStepCodeInput } from "@shared/contracts/two-step";
import { AppError, fieldError } from "../shared/errors";
import { safeEqualText, sha256Hex } from "../shared/crypto";
import { isoNow } from "../shared/time";
import type { DomainContext } from "../context";
import { findUserById, type UserRow } from "../accounts/users";
import { assertNotSuspended } from "../moderation/suspend-user";
import { LIMITS, RateLimiter } from "./rate-limit";
import { twoStepFailuresKey } from "./second-step";
import { createSession } from "./sessions";
import { trustDevice } from "./trusted-devices";
import { normaliseCode, spendAppOrRecoveryCode, WRONG_CODE, type TwoStepRow } from "./two-step-codes";

export const CHALLENGE_EXPIRED = message("This sign-in has expired. Please sign in again.");

type ChallengeRow = {
  id: number;
  user_id: number;
  email_code_hash: string | null;
  email_code_expires_at: string | null;
} & { [K in keyof TwoStepRow]: TwoStepRow[K] | null };

/** A live challenge with the account's authenticator row (null columns when it was turned off meanwhile). */
export async function findChallenge(db: D1Database, challenge: string): Promise<ChallengeRow | null> {
  return db
    .prepare(
      `SELECT c.id, c.user_id, c.email_code_hash, c.email_code_expires_at, t.secret, t.enabled_at, t.last_step
       FROM two_step_challenges c LEFT JOIN two_step t ON t.user_id = c.user_id
       WHERE c.token_hash = ? AND c.used_at IS NULL AND c.expires_at > ?`,
    )
    .bind(await sha256Hex(challenge), isoNow())
    .first<ChallengeRow>();
}

export const emailCodeHash = (challengeId: number, code: string) => sha256Hex(`${challengeId}:${code}`);

async function spendsEmailCode(row: ChallengeRow, code: string): Promise<boolean> {
  if (!row.email_code_hash || !row.email_code_expires_at || row.email_code_expires_at <= isoNow()) return false;
  if (!/^\d{6}$/.test(code)) return false;
  return safeEqualText(await emailCodeHash(row.id, code), row.email_code_hash);
}

/**
 * The second step of a sign-in: an authenticator code, a recovery code or the code emailed for this challenge.
 * Every attempt counts against the IP; wrong codes against the challenge and the account (as wrong passwords do),
 * so that past either limit even a right code answers 429. A right code uses the challenge up and opens the
 * session; with `trustDevice`, the device is trusted for 30 days (`trustedDevice`, the token for its cookie).
 */
export async function completeTwoStep(
  ctx: DomainContext,
  input: TwoStepCodeInput,
): Promise<{ user: UserRow; token: string; trustedDevice: string | null }> {
  const limiter = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE);
  await limiter.hit(`two-step:ip:${ctx.ip}`, LIMITS.twoStepCodesPerIp);
  const row = await findChallenge(ctx.db, input.challenge);
  if (!row) throw new AppError("forbidden", CHALLENGE_EXPIRED);
  const failureLimits = [
    { key: `two-step:challenge:${row.id}`, limit: LIMITS.twoStepFailuresPerChallenge },
    { key: twoStepFailuresKey(row.user_id), limit: LIMITS.twoStepFailuresPerAccount },
  ];
  for (const { key, limit } of failureLimits) await limiter.check(key, limit);

  const code = normaliseCode(input.code);
  const authenticator = row.secret === null ? null : { ...row, secret: row.secret, last_step: row.last_step ?? 0 };
  const right =
    (await spendsEmailCode(row, code)) ||
    (authenticator?.enabled_at ? await spendAppOrRecoveryCode(ctx, row.user_id, authenticator, code) : false);
  if (!right) {
    for (const { key, limit } of failureLimits) await limiter.hit(key, limit);
    throw fieldError("code", WRONG_CODE);
  }

  const used = await ctx.db
    .prepare("UPDATE two_step_challenges SET used_at = ? WHERE id = ? AND used_at IS NULL")
    .bind(isoNow(), row.id)
    .run();
  const user = used.meta.changes === 1 ? await findUserById(ctx.db, row.user_id) : null;
  if (!user) throw new AppError("forbidden", CHALLENGE_EXPIRED);
  assertNotSuspended(user);
  return {
    user,
    token: await createSession(ctx, user.id),
    trustedDevice: input.trustDevice ? await trustDevice(ctx.db, user.id) : null,
  };
}
