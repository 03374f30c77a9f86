import type { DomainContext } from "../context";
import { visiblePostSql } from "../policies/posts";
import { POST_SELECT_SQL, presentPosts, type PostRow, type PostView } from "../posts/present-posts";
import { isoNow } from "../shared/time";
import { rateLimitedSearch } from "./search-users";

const POST_SEARCH_LIMIT = 20;

/**
 * /search → Posts: published posts whose text has words starting with the term's words, best match first, with
 * the timeline's visibility: own posts, Everyone-posts, Followers-posts of followed creators, Subscribers-posts
 * of subscribed ones (paid ones locked unless bought); blocks and suspended authors never. The term goes through
 * rateLimitedSearch (no FTS5 syntax gets through), so searches share the user search's per-address limit.
 */
export async function searchPosts(
  ctx: Pick<DomainContext, "db" | "config" | "ip">,
  viewerId: number | null,
  term: string,
): Promise<PostView[]> {
  const rows = await rateLimitedSearch<PostRow>(ctx, term, (query) =>
    ctx.db
      .prepare(
        `WITH hits AS (SELECT rowid AS id, rank FROM posts_search WHERE posts_search MATCH ?3)
         ${POST_SELECT_SQL} JOIN hits h ON h.id = p.id
         WHERE ${visiblePostSql()}
           AND (p.user_id = ?1 OR p.audience = 'everyone'
             OR (p.audience = 'followers' AND (v_follows OR v_subscribed))
             OR (p.audience = 'subscribers' AND v_subscribed))
         ORDER BY h.rank LIMIT ?4`,
      )
      .bind(viewerId, isoNow(), query, POST_SEARCH_LIMIT),
  );
  return presentPosts(rows, viewerId);
}
