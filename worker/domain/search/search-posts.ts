import { LIMITS, RateLimiter } from "../auth/rate-limit";
import type { DomainContext } from "../context";
import { POST_SELECT_SQL, presentPosts, type PostRow, type PostView } from "../posts/present-posts";
import { isoNow } from "../shared/time";
import { toPrefixQuery } from "./search-users";

export const POST_SEARCH_LIMIT = 20;

/**
 * /search → Posts: published posts whose text has words starting with the term's words, best match first, with
 * the timeline's visibility: own posts, Everyone-posts, Followers-posts of followed creators, Subscribers-posts
 * of subscribed ones (paid ones locked unless bought); blocks and suspended authors never. The term goes through
 * toPrefixQuery, so no FTS5 syntax gets through; searches share the user search's per-address limit.
 */
export async function searchPosts(ctx: Pick<DomainContext, "db" | "config" | "ip">, viewerId: number | null, term: string): Promise<PostView[]> {
  const { statement: count, enforce } = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE).prepareHit(`search:ip:${ctx.ip}`, LIMITS.searchPerIp);
  const query = toPrefixQuery(term);
  if (!query) {
    enforce(await count.all());
    return [];
  }
  const [counted, found] = await ctx.db.batch([
    count,
    ctx.db
      .prepare(
        `WITH hits AS (SELECT rowid AS id, rank FROM posts_search WHERE posts_search MATCH ?3)
         ${POST_SELECT_SQL} JOIN hits h ON h.id = p.id
         WHERE p.status = 'published' AND u.suspended_at IS NULL
           AND (p.user_id = ?1 OR p.audience = 'everyone'
             OR (p.audience = 'followers' AND (v_follows OR v_subscribed))
             OR (p.audience = 'subscribers' AND v_subscribed))
         ORDER BY h.rank LIMIT ?4`,
      )
      .bind(viewerId, isoNow(), query, POST_SEARCH_LIMIT),
  ]);
  enforce(counted!);
  return presentPosts(ctx.db, found!.results as unknown as PostRow[], viewerId);
}
