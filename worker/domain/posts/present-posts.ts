import { publicMediaUrl } from "../accounts/users";
import { hlsUrlOf, readyRenditionsJsonSql, renditionViewsOf } from "../media/playback";
import { servedImageOf, type ServedKeys } from "../media/scaled-images";
import { postPermissionsOf } from "../policies/posts";
import { lockOf, VIEWER_FACTS_SQL, viewerFactsOf, type Audience, type ViewerFactsRow } from "./access";
import type { PostStatus, PostView } from "@shared/contracts/posts";
import type { RenditionView } from "@shared/contracts/renditions";
export { type PostView };

/**
 * SELECT … FROM posts p JOIN users u: the columns presentPosts needs, with the viewer as ?1 and now as ?2.
 * Posts that do not exist for the viewer are left out by the callers' WHERE (visiblePostSql, policies/posts.ts).
 */
export const POST_SELECT_SQL = `SELECT p.id, p.user_id, p.text, p.audience, p.price_cents, p.status, p.published_at, p.scheduled_at,
  p.edited_at, p.like_count, p.comment_count, u.username AS author_username, u.name AS author_name,
  u.avatar_key AS author_avatar_key, u.role AS author_role, ${VIEWER_FACTS_SQL},
  (SELECT json_group_array(json_array(pm.id, pm.kind, pm.object_key, pm.poster_key, pm.preview_key, pm.width, pm.height, pm.w640_key, pm.w1280_key,
     pm.stream_uid, ${readyRenditionsJsonSql("pm.id")}, pm.marked_key))
   FROM (SELECT m.* FROM post_media x JOIN media m ON m.id = x.media_id WHERE x.post_id = p.id AND m.status = 'ready' ORDER BY x.position) pm) AS media_json
  FROM posts p JOIN users u ON u.id = p.user_id`;

export interface PostRow extends ViewerFactsRow {
  id: number;
  user_id: number;
  text: string;
  audience: Audience;
  price_cents: number;
  status: PostStatus;
  published_at: string | null;
  scheduled_at: string | null;
  edited_at: string | null;
  like_count: number;
  comment_count: number;
  author_username: string;
  author_name: string;
  author_avatar_key: string | null;
  author_role: string;
  /**
   * The post's ready media in order, as JSON arrays [id, kind, object_key, poster_key, preview_key, width, height,
   * w640_key, w1280_key, stream_uid, renditions (playback.ts), marked_key]:
   * read with the post, so a page of posts is one round trip (presentPostRows decides what the viewer gets).
   */
  media_json?: string;
}

interface MediaRow extends ServedKeys {
  id: number;
  post_id: number;
  kind: "image" | "video";
  poster_key: string | null;
  preview_key: string | null;
  width: number | null;
  height: number | null;
  stream_uid: string | null;
  renditions: RenditionView[];
}

/** Rows to views; posts hidden from this viewer (blocks) are dropped. */
function presentPostRows(rows: PostRow[], mediaRows: MediaRow[], viewerId: number | null): PostView[] {
  const mediaByPost = new Map<number, MediaRow[]>();
  for (const row of mediaRows) mediaByPost.set(row.post_id, [...(mediaByPost.get(row.post_id) ?? []), row]);
  const views: PostView[] = [];
  for (const row of rows) {
    const lock = lockOf(
      { authorId: row.user_id, audience: row.audience, priceCents: row.price_cents },
      viewerFactsOf(viewerId, row),
    );
    if (lock === "hidden") continue;
    const items = mediaByPost.get(row.id) ?? [];
    views.push({
      id: row.id,
      text: row.text,
      audience: row.audience,
      priceCents: row.price_cents,
      status: row.status,
      publishedAt: row.published_at,
      scheduledAt: row.scheduled_at,
      editedAt: row.edited_at,
      author: {
        id: row.user_id,
        username: row.author_username,
        name: row.author_name,
        avatarUrl: publicMediaUrl(row.author_avatar_key),
      },
      likeCount: row.like_count,
      commentCount: row.comment_count,
      liked: row.v_liked === 1,
      bookmarked: row.v_bookmarked === 1,
      isOwn: viewerId === row.user_id,
      lock,
      viewer: postPermissionsOf(
        { authorId: row.user_id, authorIsCreator: row.author_role === "creator" },
        viewerId,
        lock,
      ),
      mediaCount: items.length,
      media: lock
        ? null
        : items.map((m) => ({
            id: m.id,
            kind: m.kind,
            ...servedImageOf(m, viewerId === row.user_id),
            posterUrl: m.poster_key ? `/media/${m.poster_key}` : null,
            width: m.width,
            height: m.height,
            renditions: m.renditions,
            hlsUrl: hlsUrlOf(m.object_key, m.stream_uid),
          })),
      previews: lock
        ? items.map((m) => ({ kind: m.kind, previewUrl: m.preview_key ? `/media/${m.preview_key}` : null }))
        : [],
    });
  }
  return views;
}

type MediaTuple = [
  number,
  MediaRow["kind"],
  string,
  string | null,
  string | null,
  number | null,
  number | null,
  string | null,
  string | null,
  string | null,
  Parameters<typeof renditionViewsOf>[0],
  string | null,
];

/** The media read with the rows (POST_SELECT_SQL's media_json). */
function mediaOfRows(rows: PostRow[]): MediaRow[] {
  return rows.flatMap((row) =>
    (JSON.parse(row.media_json ?? "[]") as MediaTuple[]).map(
      ([
        id,
        kind,
        object_key,
        poster_key,
        preview_key,
        width,
        height,
        w640_key,
        w1280_key,
        stream_uid,
        renditions,
        marked_key,
      ]) => ({
        id,
        post_id: row.id,
        kind,
        object_key,
        poster_key,
        preview_key,
        width,
        height,
        w640_key,
        w1280_key,
        stream_uid,
        renditions: renditionViewsOf(renditions),
        marked_key,
      }),
    ),
  );
}

/** Presents rows of POST_SELECT_SQL, their media and renditions included: no query. */
export function presentPosts(rows: PostRow[], viewerId: number | null): PostView[] {
  return presentPostRows(rows, mediaOfRows(rows), viewerId);
}
