import type { EffectsContext } from "../context";
import { isoNow } from "../shared/time";

/** How many due posts one cron run publishes; the rest wait for the next run (every 5 minutes). */
const DUE_POSTS_PER_RUN = 500;

export interface PublishedPost {
  id: number;
  user_id: number;
}

/**
 * The cron trigger's job: publish every scheduled post whose time has come, EXACTLY ONCE even when runs
 * overlap. One guarded UPDATE … WHERE status = 'scheduled' … RETURNING decides: a post that another run
 * published already no longer matches, so only one run gets it back and announces it.
 */
export async function publishDueScheduledPosts(ctx: Pick<EffectsContext, "db" | "publish">): Promise<PublishedPost[]> {
  const { results } = await ctx.db
    .prepare(
      `UPDATE posts SET status = 'published', published_at = ?1
     WHERE id IN (SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ?1 ORDER BY scheduled_at LIMIT ?2)
       AND status = 'scheduled'
     RETURNING id, user_id`,
    )
    .bind(isoNow(), DUE_POSTS_PER_RUN)
    .all<PublishedPost>();
  for (const authorId of new Set(results.map((post) => post.user_id))) ctx.publish({ type: "PostPublished", authorId });
  return results;
}
