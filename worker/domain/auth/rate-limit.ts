import { tooManyAttempts } from "../shared/errors";
import { now } from "@shared/clock";
import { HOUR, MINUTE } from "../shared/time";

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Per-IP limits count every attempt; per-account limits count what an attacker would repeat against one
 * victim (failed sign-ins, wrong passwords at a re-check, emails sent to the address). RATE_LIMIT_SCALE
 * multiplies every `max`, so that the end-to-end suite and the benchmarks, whose requests all come from one
 * address, can run.
 *
 * Failed sign-ins count twice: per account and client address, so that a stranger's failures lock only the
 * stranger's address out; and per account alone, a slower allowance no single address can spend on its own
 * (four 15-minute windows of 5 make 20 an hour), which stops a guesser spread over many addresses.
 */
export const LIMITS = {
  signInPerIp: { max: 30, windowMs: 10 * MINUTE },
  signInFailuresPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  signInFailuresPerAccount: { max: 50, windowMs: HOUR },
  /** Passkey answers that did not sign in: a key cannot be guessed, so these are broken or replayed answers. */
  passkeyFailuresPerIp: { max: 10, windowMs: 15 * MINUTE },
  passwordRecheckFailuresPerAccount: { max: 5, windowMs: 15 * MINUTE },
  /**
   * Second-step codes (two-step sign-in): every attempt per IP; wrong ones per challenge (a challenge lives 10
   * minutes) and per account, a sign-in's and a re-check's together, so that a stolen password or session cannot
   * be used to guess the code.
   */
  twoStepCodesPerIp: { max: 30, windowMs: 10 * MINUTE },
  twoStepFailuresPerChallenge: { max: 5, windowMs: 10 * MINUTE },
  twoStepFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  signUpPerIp: { max: 10, windowMs: HOUR },
  /** Well-formed sign-ups, each of which may learn whether its email has an account (sign-up.ts). */
  signUpAttemptsPerIp: { max: 25, windowMs: HOUR },
  emailLinksPerIp: { max: 20, windowMs: HOUR },
  emailLinksPerAddress: { max: 3, windowMs: 10 * MINUTE },
  emailLinksPerAccount: { max: 3, windowMs: 10 * MINUTE },
  passwordResetPerIp: { max: 10, windowMs: HOUR },
  searchPerIp: { max: 120, windowMs: MINUTE },
  testNotificationsPerAccount: { max: 5, windowMs: 10 * MINUTE },
} satisfies Record<string, Limit>;

/**
 * The key of the emailed-link limit: the address the link goes to, normalised, counted whether or not an account
 * has it, so that the answers (200, then 429) say nothing about which addresses exist.
 */
export const emailLinksKey = (email: string) => `email-links:to:${email.trim().toLowerCase()}`;

export class RateLimiter {
  constructor(
    private readonly db: D1Database,
    private readonly scale: number,
  ) {}

  private window(limit: Limit, at: number) {
    const start = Math.floor(at / limit.windowMs) * limit.windowMs;
    return { start, retryAfterSeconds: Math.ceil((start + limit.windowMs - at) / 1000) };
  }

  /** Counts one attempt and throws 429 once the window's allowance is spent. */
  async hit(key: string, limit: Limit): Promise<void> {
    const { statement, enforce } = this.prepareHit(key, limit);
    enforce(await statement.all<{ hits: number }>());
  }

  /**
   * The counting statement of `hit`, for a read it guards to go in the same D1 batch (one round trip);
   * `enforce` then throws 429 from the batch's result for it, before anything read is used.
   */
  prepareHit(key: string, limit: Limit): { statement: D1PreparedStatement; enforce(result: D1Result<unknown>): void } {
    const at = now().getTime();
    const { start, retryAfterSeconds } = this.window(limit, at);
    const statement = this.db
      .prepare(
        `INSERT INTO rate_limits (key, window_start_ms, hits) VALUES (?1, ?2, 1)
         ON CONFLICT(key) DO UPDATE SET
           hits = CASE WHEN rate_limits.window_start_ms = excluded.window_start_ms THEN rate_limits.hits + 1 ELSE 1 END,
           window_start_ms = excluded.window_start_ms
         RETURNING hits`,
      )
      .bind(key, start);
    const allowance = limit.max * this.scale;
    return {
      statement,
      enforce(result) {
        const hits = (result.results[0] as { hits?: number } | undefined)?.hits ?? 0;
        if (hits > allowance) throw tooManyAttempts(retryAfterSeconds);
      },
    };
  }

  /** Throws 429 if the window is already spent, without counting. */
  async check(key: string, limit: Limit): Promise<void> {
    const at = now().getTime();
    const { start, retryAfterSeconds } = this.window(limit, at);
    const row = await this.db
      .prepare("SELECT hits FROM rate_limits WHERE key = ? AND window_start_ms = ?")
      .bind(key, start)
      .first<{ hits: number }>();
    if ((row?.hits ?? 0) >= limit.max * this.scale) throw tooManyAttempts(retryAfterSeconds);
  }
}

/** Forgets windows that ended more than a day ago (run by the cron trigger). */
export const pruneRateLimits = (db: D1Database) =>
  db
    .prepare("DELETE FROM rate_limits WHERE window_start_ms < ?")
    .bind(now().getTime() - 24 * HOUR)
    .run();
