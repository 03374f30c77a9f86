import type { TwoStepStatus } from "@shared/contracts/two-step";

/** Whether two-step sign-in is on, and how many recovery codes are left (Settings → Security). */
export async function readTwoStepStatus(db: D1Database, userId: number): Promise<TwoStepStatus> {
  const row = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM two_step WHERE user_id = ?1 AND enabled_at IS NOT NULL) AS enabled,
         (SELECT COUNT(*) FROM two_step_recovery_codes WHERE user_id = ?1 AND used_at IS NULL) AS left_count`,
    )
    .bind(userId)
    .first<{ enabled: number; left_count: number }>();
  return { enabled: Boolean(row?.enabled), recoveryCodesLeft: row?.left_count ?? 0 };
}
