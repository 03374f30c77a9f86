/**
 * The followers (subscribers follow too) to tell of an author's new post, most recent first, at most `limit`:
 * beyond it, the 30-second poll of /api/updates tells the rest.
 */
export async function followersToTell(db: D1Database, authorId: number, limit: number): Promise<number[]> {
  const { results } = await db
    .prepare("SELECT follower_id FROM follows WHERE creator_id = ? ORDER BY created_at DESC LIMIT ?")
    .bind(authorId, limit)
    .all<{ follower_id: number }>();
  return results.map((row) => row.follower_id);
}
