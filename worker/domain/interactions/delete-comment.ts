import { AppError } from "../shared/errors";
import { message } from "@shared/messages";

const COMMENT_NOT_FOUND = message("This comment does not exist.");

/** Deletes a comment written by the viewer or left on the viewer's post; anything else is "not found". */
export async function deleteComment(db: D1Database, viewerId: number, commentId: number): Promise<void> {
  const result = await db
    .prepare(
      "DELETE FROM comments WHERE id = ?1 AND (user_id = ?2 OR post_id IN (SELECT id FROM posts WHERE id = comments.post_id AND user_id = ?2))",
    )
    .bind(commentId, viewerId)
    .run();
  if ((result.meta.changes ?? 0) === 0) throw new AppError("not_found", COMMENT_NOT_FOUND);
}
