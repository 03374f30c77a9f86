import type { EffectsContext } from "../context";
import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { getPost } from "./get-post";
import { NOT_SCHEDULED, POST_NOT_FOUND } from "./post-rules";
import type { PostView } from "./present-posts";

/** "Publish now" on /scheduled: the author publishes a scheduled post before its time. */
export async function publishPostNow(
  ctx: Pick<EffectsContext, "db" | "publish">,
  authorId: number,
  postId: number,
): Promise<PostView> {
  const published = await ctx.db
    .prepare(
      "UPDATE posts SET status = 'published', published_at = ?3 WHERE id = ?1 AND user_id = ?2 AND status = 'scheduled' RETURNING id",
    )
    .bind(postId, authorId, isoNow())
    .first();
  const post = await getPost(ctx.db, postId, authorId);
  if (!post || !post.isOwn) throw new AppError("not_found", POST_NOT_FOUND);
  if (!published) throw fieldError("id", NOT_SCHEDULED);
  ctx.publish({ type: "PostPublished", authorId });
  return post;
}
