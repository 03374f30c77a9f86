import { publicMediaUrl } from "../accounts/users";
import { followsSql, visibleMemberSql } from "../policies/members";
import type { SuggestedProfile } from "@shared/contracts/profiles";
export { type SuggestedProfile };

const SUGGESTION_LIMIT = 5;

/**
 * The "Suggested" panel: the most followed creators the viewer does not follow yet, never the viewer. Walks the
 * partial index of creators by follower count and skips followed ones with a primary-key probe, so the cost
 * grows with how many top creators the viewer already follows, not with the number of users.
 */
export async function suggestProfiles(db: D1Database, viewerId: number | null): Promise<SuggestedProfile[]> {
  const { results } = await db
    .prepare(
      `SELECT u.username, u.name, u.avatar_key FROM users u INDEXED BY users_creators_by_followers
       WHERE u.role = 'creator' AND u.id <> ?1 AND ${visibleMemberSql("u")}
         AND NOT ${followsSql("?1", "u.id")}
       ORDER BY u.follower_count DESC, u.id
       LIMIT ?2`,
    )
    .bind(viewerId ?? 0, SUGGESTION_LIMIT)
    .all<{ username: string; name: string; avatar_key: string | null }>();
  return results.map((row) => ({
    username: row.username,
    avatarUrl: publicMediaUrl(row.avatar_key),
    fullname: row.name,
  }));
}
