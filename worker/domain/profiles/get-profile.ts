import { publicMediaUrl, type UserRow } from "../accounts/users";
import type { Audience } from "../posts/access";

export type { Audience };


export interface ProfilePost {
  id: number;
  text: string;
  audience: Audience;
  publishedAt: string;
  mediaCount: number;
  /** Present only when the viewer may see the media; a locked post never carries URLs or keys. */
  media: { url: string; kind: "image" | "video" }[] | null;
}

export interface Profile {
  userId: number;
  username: string;
  name: string;
  bio: string;
  avatarUrl: string;
  coverUrl: string;
  isCreator: boolean;
  postCount: number;
  mediaCount: number;
  posts: ProfilePost[];
}

export const PROFILE_PAGE_SIZE = 20;

export async function getProfile(db: D1Database, username: string, viewerId: number | null): Promise<Profile | null> {
  const user = await db.prepare("SELECT * FROM users WHERE username = ?").bind(username).first<UserRow>();
  if (!user) return null;
  const [counts, posts, media] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM posts WHERE user_id = ?1 AND status = 'published') AS post_count,
                (SELECT COUNT(*) FROM media m JOIN posts p ON p.id = m.post_id WHERE p.user_id = ?1 AND p.status = 'published') AS media_count`,
      )
      .bind(user.id),
    db
      .prepare("SELECT id, text, audience, published_at FROM posts WHERE user_id = ? AND status = 'published' ORDER BY published_at DESC LIMIT ?")
      .bind(user.id, PROFILE_PAGE_SIZE),
    db
      .prepare(
        `SELECT m.post_id, m.kind, m.object_key FROM media m
         WHERE m.post_id IN (SELECT id FROM posts WHERE user_id = ? AND status = 'published' ORDER BY published_at DESC LIMIT ?)
         ORDER BY m.post_id, m.position`,
      )
      .bind(user.id, PROFILE_PAGE_SIZE),
  ]);
  const totals = counts!.results[0] as { post_count: number; media_count: number };
  const mediaByPost = new Map<number, { kind: "image" | "video"; object_key: string }[]>();
  for (const row of media!.results as { post_id: number; kind: "image" | "video"; object_key: string }[]) {
    mediaByPost.set(row.post_id, [...(mediaByPost.get(row.post_id) ?? []), row]);
  }
  return {
    userId: user.id,
    username: user.username,
    name: user.name,
    bio: user.bio,
    avatarUrl: publicMediaUrl(user.avatar_key),
    coverUrl: publicMediaUrl(user.cover_key),
    isCreator: user.role === "creator",
    postCount: totals.post_count,
    mediaCount: totals.media_count,
    posts: (posts!.results as { id: number; text: string; audience: Audience; published_at: string }[]).map((post) => {
      const items = mediaByPost.get(post.id) ?? [];
      return {
        id: post.id,
        text: post.text,
        audience: post.audience,
        publishedAt: post.published_at,
        mediaCount: items.length,
        media: post.audience === "everyone" || user.id === viewerId ? items.map((m) => ({ url: `/media/${m.object_key}`, kind: m.kind })) : null,
      };
    }),
  };
}
