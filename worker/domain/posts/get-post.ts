import { publicMediaUrl } from "../accounts/users";
import { canSeePostMedia, type Audience } from "../profiles/get-profile";
import { isoNow } from "../shared/time";

export interface PostView {
  id: number;
  text: string;
  audience: Audience;
  publishedAt: string;
  author: { username: string; name: string; avatarUrl: string };
  mediaCount: number;
  /** The viewer may not see the media; the text stays readable as the post's public teaser. */
  locked: boolean;
  /** Only when the viewer may see it; a locked post carries no URL or key. */
  media: { url: string; kind: "image" | "video" }[] | null;
}

/** One published post as this viewer may see it; unpublished, scheduled or unknown posts are not found. */
export async function getPost(db: D1Database, postId: number, viewerId: number | null): Promise<PostView | null> {
  const [posts, media] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT p.id, p.user_id, p.text, p.audience, p.published_at, u.username, u.name, u.avatar_key
         FROM posts p JOIN users u ON u.id = p.user_id WHERE p.id = ? AND p.published_at IS NOT NULL AND p.published_at <= ?`,
      )
      .bind(postId, isoNow()),
    db.prepare("SELECT kind, object_key FROM post_media WHERE post_id = ? ORDER BY position").bind(postId),
  ]);
  const post = posts!.results[0] as
    | { id: number; user_id: number; text: string; audience: Audience; published_at: string; username: string; name: string; avatar_key: string | null }
    | undefined;
  if (!post) return null;
  const items = media!.results as { kind: "image" | "video"; object_key: string }[];
  const visible = canSeePostMedia(post.audience, post.user_id, viewerId);
  return {
    id: post.id,
    text: post.text,
    audience: post.audience,
    publishedAt: post.published_at,
    author: { username: post.username, name: post.name, avatarUrl: publicMediaUrl(post.avatar_key) },
    mediaCount: items.length,
    locked: !visible,
    media: visible ? items.map((m) => ({ url: `/media/${m.object_key}`, kind: m.kind })) : null,
  };
}
