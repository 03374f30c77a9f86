import type { ReportReason, ReportTargetKind } from "@shared/contracts/moderation";
import type { OpenReport } from "@shared/contracts/moderation";
export { type OpenReport };

interface OpenReportRow {
  id: number;
  reason: ReportReason;
  description: string;
  created_at: string;
  target_kind: ReportTargetKind;
  target_id: number;
  reporter_username: string;
  post_text: string | null;
  target_user_id: number | null;
  target_username: string | null;
  target_name: string | null;
  target_suspended_at: string | null;
}

/** Oldest first. A post removed meanwhile shows without text; its report can still be dismissed. */
export async function listOpenReports(db: D1Database): Promise<OpenReport[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.reason, r.description, r.created_at, r.target_kind, r.target_id, reporter.username AS reporter_username,
              p.text AS post_text, t.id AS target_user_id, t.username AS target_username, t.name AS target_name,
              t.suspended_at AS target_suspended_at
       FROM reports r
       JOIN users reporter ON reporter.id = r.reporter_id
       LEFT JOIN posts p ON r.target_kind = 'post' AND p.id = r.target_id
       LEFT JOIN users t ON t.id = CASE r.target_kind WHEN 'post' THEN p.user_id ELSE r.target_id END
       WHERE r.status = 'open' ORDER BY r.id LIMIT 100`,
    )
    .all<OpenReportRow>();
  return results.map((row) => ({
    id: row.id,
    reason: row.reason,
    description: row.description,
    createdAt: row.created_at,
    reporter: { username: row.reporter_username },
    target: {
      kind: row.target_kind,
      id: row.target_id,
      text: row.post_text,
      user:
        row.target_user_id === null
          ? null
          : {
              id: row.target_user_id,
              username: row.target_username ?? "",
              name: row.target_name ?? "",
              suspended: row.target_suspended_at !== null,
            },
    },
  }));
}
