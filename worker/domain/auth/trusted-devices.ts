import { randomToken, sha256Hex } from "../shared/crypto";
import { DAY, isoIn, isoNow } from "../shared/time";

/** "Trust this device for 30 days": how long a device skips the second step. */
export const TRUSTED_DEVICE_LIFETIME_MS = 30 * DAY;

/** Marks the device trusted: the raw token goes to its cookie once, and only its SHA-256 is stored. */
export async function trustDevice(db: D1Database, userId: number): Promise<string> {
  const token = randomToken();
  await db
    .prepare("INSERT INTO two_step_trusted_devices (user_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?)")
    .bind(userId, await sha256Hex(token), isoIn(TRUSTED_DEVICE_LIFETIME_MS), isoNow())
    .run();
  return token;
}

/** The cron's sweep: trusts and sign-in challenges past their lifetime are gone (finding one already refuses it). */
export async function deleteExpiredTwoStepRecords(db: D1Database): Promise<number> {
  const at = isoNow();
  const [devices, challenges] = await db.batch([
    db.prepare("DELETE FROM two_step_trusted_devices WHERE expires_at < ?").bind(at),
    db.prepare("DELETE FROM two_step_challenges WHERE expires_at < ?").bind(at),
  ]);
  return (devices!.meta.changes ?? 0) + (challenges!.meta.changes ?? 0);
}
