import type { EffectsContext } from "../context";
import { AppError } from "../shared/errors";
import { POST_NOT_FOUND } from "./post-rules";

/**
 * The author deletes their post: its row (its uses of files, likes, comments, bookmarks and purchases go with it).
 * Its files stay in the vault (docs/decisions/vault.md): deleting one there is its own step. Someone else's post is
 * simply not found.
 */
export async function deletePost(ctx: Pick<EffectsContext, "db">, authorId: number, postId: number): Promise<void> {
  const deleted = await ctx.db
    .prepare("DELETE FROM posts WHERE id = ? AND user_id = ? RETURNING id")
    .bind(postId, authorId)
    .first();
  if (!deleted) throw new AppError("not_found", POST_NOT_FOUND);
}
