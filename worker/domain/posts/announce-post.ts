import type { Env } from "../../env";
import { FAN_OUT_LIMIT, notifyUsers } from "../../realtime/notify";

/**
 * A post just became published: its author's followers (subscribers follow too) get NewUpdate, so their Home
 * dot lights and an open /home shows "Show N new posts". Run after the write, in waitUntil.
 */
export async function announcePost(env: Env, authorId: number): Promise<void> {
  const { results } = await env.DB.prepare("SELECT follower_id FROM follows WHERE creator_id = ? ORDER BY created_at DESC LIMIT ?")
    .bind(authorId, FAN_OUT_LIMIT)
    .all<{ follower_id: number }>();
  await notifyUsers(env, [authorId, ...results.map((r) => r.follower_id)]);
}
