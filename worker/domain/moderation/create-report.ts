import { getPost } from "../posts/get-post";
import { AppError, fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { DESCRIPTION_REQUIRED, type ReportReason } from "@shared/contracts/moderation";

type ReportTarget = { kind: "post"; postId: number } | { kind: "user"; username: string };

export interface ReportInput {
  target: ReportTarget;
  reason: ReportReason;
  description: string;
}

const CANNOT_REPORT_YOURSELF = message("You cannot report yourself.");

/** The reported thing must exist for the reporter: a post they can see, an active account. */
async function resolveTarget(
  db: D1Database,
  reporterId: number,
  target: ReportTarget,
): Promise<{ kind: "post" | "user"; id: number; ownerId: number }> {
  if (target.kind === "post") {
    const post = await getPost(db, target.postId, reporterId);
    if (!post) throw new AppError("not_found", message("This post does not exist."));
    return { kind: "post", id: post.id, ownerId: post.author.id };
  }
  const user = await db
    .prepare("SELECT id FROM users WHERE username = ? AND suspended_at IS NULL")
    .bind(target.username.toLowerCase())
    .first<{ id: number }>();
  if (!user) throw new AppError("not_found", message("This user does not exist."));
  return { kind: "user", id: user.id, ownerId: user.id };
}

/**
 * A member reports a post or a user for one of spec §8's reasons. Reporting the same thing again while the
 * first report is open changes nothing: `created` is then false.
 */
export async function createReport(
  db: D1Database,
  reporterId: number,
  input: ReportInput,
): Promise<{ created: boolean }> {
  const description = input.description.trim();
  if (input.reason === "other" && description === "") throw fieldError("description", DESCRIPTION_REQUIRED);
  const target = await resolveTarget(db, reporterId, input.target);
  if (target.ownerId === reporterId) throw new AppError("validation", CANNOT_REPORT_YOURSELF);
  const result = await db
    .prepare(
      `INSERT INTO reports (reporter_id, target_kind, target_id, reason, description, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    )
    .bind(reporterId, target.kind, target.id, input.reason, description, isoNow())
    .run();
  return { created: (result.meta.changes ?? 0) > 0 };
}
