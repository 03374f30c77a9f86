import { deleteExpiredTokens } from "../domain/auth/one-time-tokens";
import { pruneRateLimits } from "../domain/auth/rate-limit";
import { deleteExpiredSessions } from "../domain/auth/sessions";
import { deleteExpiredChallenges } from "../domain/passkeys/challenges";
import { deleteExpiredTwoStepRecords } from "../domain/auth/trusted-devices";
import type { Job } from "./job";

/**
 * Expired sessions, one-time links, passkey and two-step challenges and device trusts, and rate-limit windows older
 * than a day, are deleted.
 */
export const sweepExpiredRecords: Job = {
  name: "sweep-expired-records",
  run: async (ctx) => ({
    sessions: await deleteExpiredSessions(ctx),
    tokens: await deleteExpiredTokens(ctx.db),
    passkeyChallenges: await deleteExpiredChallenges(ctx.db),
    twoStepRecords: await deleteExpiredTwoStepRecords(ctx.db),
    rateLimitWindows: (await pruneRateLimits(ctx.db)).meta.changes ?? 0,
  }),
};
