import type { CreatorApplication } from "@shared/contracts/creators";

/** Where the user's latest application stands, for /becomeCreator. */
export async function getCreatorApplication(db: D1Database, userId: number): Promise<CreatorApplication | null> {
  const row = await db
    .prepare(
      "SELECT status, rejection_reason, created_at, decided_at FROM creator_requests WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    )
    .bind(userId)
    .first<{
      status: CreatorApplication["status"];
      rejection_reason: string;
      created_at: string;
      decided_at: string | null;
    }>();
  return row
    ? {
        status: row.status,
        rejectionReason: row.rejection_reason,
        createdAt: row.created_at,
        decidedAt: row.decided_at,
      }
    : null;
}
