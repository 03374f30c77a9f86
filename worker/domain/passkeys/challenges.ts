import { isoIn, isoNow, MINUTE } from "../shared/time";

export type CeremonyPurpose = "registration" | "authentication";

/** As long as the browser's own timeout, which the options name. */
export const CEREMONY_TIMEOUT_MS = 5 * MINUTE;

/** Keeps a ceremony's challenge until it is answered or expires; `userId` is the account adding a key, if any. */
export const saveChallengeStatement = (
  db: D1Database,
  challenge: string,
  purpose: CeremonyPurpose,
  userId: number | null,
) =>
  db
    .prepare("INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at) VALUES (?, ?, ?, ?)")
    .bind(challenge, purpose, userId, isoIn(CEREMONY_TIMEOUT_MS));

/**
 * Takes a challenge the response claims to answer: true once, while it is live, for its purpose and account;
 * taking it deletes it, so of two requests with the same response exactly one gets this far, and a failed
 * answer spends it too.
 */
export async function takeChallenge(
  db: D1Database,
  challenge: string,
  purpose: CeremonyPurpose,
  userId: number | null,
): Promise<boolean> {
  const taken = await db
    .prepare(
      `DELETE FROM passkey_challenges
       WHERE challenge = ? AND purpose = ? AND user_id IS ? AND expires_at > ?
       RETURNING challenge`,
    )
    .bind(challenge, purpose, userId, isoNow())
    .first();
  return taken !== null;
}

/** The cron's sweep: ceremonies never finished. */
export async function deleteExpiredChallenges(db: D1Database): Promise<number> {
  const { meta } = await db.prepare("DELETE FROM passkey_challenges WHERE expires_at < ?").bind(isoNow()).run();
  return meta.changes ?? 0;
}
