import { publicMediaUrl, type UserRow } from "../accounts/users";

export type Audience = "everyone" | "followers" | "subscribers";

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

/**
 * Until follows and subscriptions exist, only the owner and Everyone-posts unlock media; every other post
 * shows its text and a locked card. The decision is made here, once, for the page and for /media.
 */
export const canSeePostMedia = (audience: Audience, ownerId: number, viewerId: number | null) => audience === "everyone" || ownerId === viewerId;

export async function getProfile(db: D1Database, username: string, viewerId: number | null): Promise<Profile | null> {
  const user = await db.prepare("SELECT * FROM users WHERE username = ?").bind(username).first<UserRow>();
  if (!user) return null;
  const [counts, posts, media] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM posts WHERE user_id = ?1 AND published_at IS NOT NULL) AS post_count,
                (SELECT COUNT(*) FROM post_media m JOIN posts p ON p.id = m.post_id WHERE p.user_id = ?1 AND p.published_at IS NOT NULL) AS media_count`,
      )
      .bind(user.id),
    db
      .prepare("SELECT id, text, audience, published_at FROM posts WHERE user_id = ? AND published_at IS NOT NULL ORDER BY published_at DESC LIMIT ?")
      .bind(user.id, PROFILE_PAGE_SIZE),
    db
      .prepare(
        `SELECT m.post_id, m.kind, m.object_key FROM post_media m
         WHERE m.post_id IN (SELECT id FROM posts WHERE user_id = ? AND published_at IS NOT NULL ORDER BY published_at DESC LIMIT ?)
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
        media: canSeePostMedia(post.audience, user.id, viewerId) ? items.map((m) => ({ url: `/media/${m.object_key}`, kind: m.kind })) : null,
      };
    }),
  };
}

/** For /media/posts/…: may this viewer fetch this object? Unknown keys and locked posts are simply "no". */
export async function canViewPostObject(db: D1Database, objectKey: string, viewerId: number | null): Promise<boolean> {
  const row = await db
    .prepare("SELECT p.user_id, p.audience FROM post_media m JOIN posts p ON p.id = m.post_id WHERE m.object_key = ? AND p.published_at IS NOT NULL")
    .bind(objectKey)
    .first<{ user_id: number; audience: Audience }>();
  return row !== null && canSeePostMedia(row.audience, row.user_id, viewerId);
}
