import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { suspendUser } from "./suspend-user";
import { discardUnusedVaultFiles } from "../vault/delete-vault-item";

export const REPORT_ACTIONS = ["dismiss", "removeContent", "suspendUser"] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

const REPORT_NOT_OPEN = message("This report does not exist or has already been handled.");

const STATUS_OF: Record<ReportAction, "dismissed" | "content_removed" | "user_suspended"> = {
  dismiss: "dismissed",
  removeContent: "content_removed",
  suspendUser: "user_suspended",
};

/**
 * The admin's answer to an open report. Removing content deletes a reported post with its media (a user report
 * has no content of its own and is only marked); suspending acts on the reported user or the post's author.
 * Every other open report on the same target is closed with the same outcome.
 */
export async function resolveReport(
  ctx: DomainContext,
  adminId: number,
  reportId: number,
  action: ReportAction,
): Promise<void> {
  const report = await ctx.db
    .prepare(
      `SELECT r.target_kind, r.target_id, CASE r.target_kind WHEN 'post' THEN p.user_id ELSE r.target_id END AS user_id
       FROM reports r LEFT JOIN posts p ON r.target_kind = 'post' AND p.id = r.target_id WHERE r.id = ? AND r.status = 'open'`,
    )
    .bind(reportId)
    .first<{ target_kind: "post" | "user"; target_id: number; user_id: number | null }>();
  if (!report) throw new AppError("not_found", REPORT_NOT_OPEN);

  if (action === "suspendUser") {
    if (report.user_id === null) throw new AppError("validation", message("This post no longer exists."));
    await suspendUser(ctx, report.user_id);
  }
  if (action === "removeContent" && report.target_kind === "post") await deletePostWithMedia(ctx, report.target_id);

  await ctx.db
    .prepare(
      "UPDATE reports SET status = ?, resolved_at = ?, resolved_by = ? WHERE status = 'open' AND target_kind = ? AND target_id = ?",
    )
    .bind(STATUS_OF[action], isoNow(), adminId, report.target_kind, report.target_id)
    .run();
}

/**
 * The post's rows go with it (cascades); its files go too, from the vault and R2, unless another post, message or
 * story of the creator still uses them (each of those is its own report).
 */
async function deletePostWithMedia(ctx: DomainContext, postId: number) {
  const [files, post] = await ctx.db.batch<{ media_id: number; user_id: number }>([
    ctx.db.prepare("SELECT media_id FROM post_media WHERE post_id = ?").bind(postId),
    ctx.db.prepare("DELETE FROM posts WHERE id = ? RETURNING user_id").bind(postId),
  ]);
  const authorId = post!.results[0]?.user_id;
  if (authorId === undefined) return;
  await discardUnusedVaultFiles(
    ctx,
    authorId,
    files!.results.map((row) => row.media_id),
  );
}
