import { randomToken, sha256Hex } from "../shared/crypto";
import { isoIn, isoNow, MINUTE } from "../shared/time";
import type { UserRow } from "../accounts/users";
import type { TwoStepChallenge } from "@shared/contracts/two-step";

/** How long a sign-in waits for its second step. */
const CHALLENGE_LIFETIME_MS = 10 * MINUTE;

/** What a sign-in answers: a session, or a challenge that its second step turns into one. */
export type SignInResult = { user: UserRow; token: string } | { twoStep: TwoStepChallenge };

/**
 * After a right password or magic link: with two-step sign-in on and the device not trusted (`trustedDevice` is
 * the token of its cookie), a new challenge instead of a session; else null, and the caller opens the session.
 */
export async function twoStepChallengeFor(
  db: D1Database,
  userId: number,
  trustedDevice: string | null,
): Promise<TwoStepChallenge | null> {
  const row = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM two_step_trusted_devices WHERE user_id = ?1 AND token_hash = ?2 AND expires_at > ?3)
         AS trusted
       FROM two_step WHERE user_id = ?1 AND enabled_at IS NOT NULL`,
    )
    .bind(userId, trustedDevice ? await sha256Hex(trustedDevice) : "", isoNow())
    .first<{ trusted: number }>();
  if (!row || row.trusted) return null;
  const challenge = randomToken();
  await db
    .prepare("INSERT INTO two_step_challenges (user_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?)")
    .bind(userId, await sha256Hex(challenge), isoIn(CHALLENGE_LIFETIME_MS), isoNow())
    .run();
  return { challenge, methods: ["app", "recovery", "email"] };
}
