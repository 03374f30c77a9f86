import { STORIES_BAR_SIZE, STORY_LIFETIME_MS } from "@shared/contracts/story-limits";
import type { StoriesBarItem, StoryReel, StoryView, StoryViewerItem } from "@shared/contracts/stories";
import { publicMediaUrl, type UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { hlsUrlOf, readyRenditionsJsonSql, renditionViewsOf } from "../media/playback";
import { servedImageOf } from "../media/scaled-images";
import { mediaUrl } from "../media/uploads";
import { videoDurationMs } from "../media/video-duration";
import type { Viewer } from "../policies/policy";
import { requireStoryAccess, storyVisibleSql, type StoryRow } from "../policies/stories";
import { canPost } from "../posts/create-post";
import { encodeCursor, type Cursor } from "../shared/cursor";
import { AppError, fieldError } from "../shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { isoIn, isoNow } from "../shared/time";
import { readOne, type Read } from "../shared/reads";
import {
  isTooLong,
  NO_STORIES_NOW,
  ONLY_CREATORS_STORY,
  STORY_MEDIA_IN_STORY,
  STORY_MEDIA_MISSING,
  STORY_MEDIA_NOT_READY,
  STORY_VIDEO_LENGTH_UNKNOWN,
  STORY_VIDEO_TOO_LONG,
} from "./rules";
import type { CreateStoryInput } from "@shared/contracts/stories";

/** A story with its file and the viewer's (?1) view of it, as every list reads them (aliases `st`, `m`, `v`). */
export const STORY_COLUMNS = `st.*, m.kind AS media_kind, m.object_key, m.marked_key, m.poster_key, m.stream_uid,
  ${readyRenditionsJsonSql("m.id")} AS renditions_json,
  v.viewer_id IS NOT NULL AS seen, COALESCE(v.liked, 0) AS liked`;
export const STORY_JOINS = `JOIN users o ON o.id = st.creator_id JOIN media m ON m.id = st.media_id
  LEFT JOIN story_views v ON v.story_id = st.id AND v.viewer_id = ?1`;

export interface StoryListRow extends StoryRow {
  media_kind: "image" | "video";
  object_key: string;
  /** A marked photo's marked copy (a vault file a post or message used first): what everyone but its creator gets. */
  marked_key: string | null;
  poster_key: string | null;
  stream_uid: string | null;
  /** Its file's ready renditions (playback.ts readyRenditionsJsonSql). */
  renditions_json: string;
  seen: number;
  liked: number;
}

export function presentStory(row: StoryListRow, viewerId: number): StoryView {
  const own = row.creator_id === viewerId;
  return {
    id: row.id,
    kind: row.media_kind,
    url: servedImageOf({ ...row, w640_key: null, w1280_key: null }, own).url,
    posterUrl: row.poster_key ? mediaUrl(row.poster_key) : null,
    renditions: renditionViewsOf(row.renditions_json),
    hlsUrl: hlsUrlOf(row.object_key, row.stream_uid),
    text: row.text,
    audience: row.audience,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    highlightId: own ? row.highlight_id : null,
    seen: own || row.seen === 1,
    liked: row.liked === 1,
    own: own ? { viewCount: row.view_count, likeCount: row.like_count } : null,
  };
}

interface AuthorRow {
  id: number;
  username: string;
  name: string;
  avatar_key: string | null;
}
const presentAuthor = (row: AuthorRow) => ({
  id: row.id,
  username: row.username,
  name: row.name,
  avatarUrl: publicMediaUrl(row.avatar_key),
});

/**
 * Publishes a story: a finished file of the creator's vault (uploaded for the story or for anything else), in no
 * other story: a file is in one story at a time, live or kept in a highlight (docs/decisions/vault.md). A
 * video's length is read from its file (a few range reads); a file that does not say is taken at the length the
 * browser measured. The story lives 24 hours.
 */
export async function createStory(
  ctx: Pick<DomainContext, "db" | "env">,
  author: Pick<UserRow, "id" | "role">,
  input: CreateStoryInput,
): Promise<StoryView> {
  if (!canPost(author)) throw new AppError("forbidden", ONLY_CREATORS_STORY);
  const media = await ctx.db
    .prepare(
      `SELECT id, kind, status, object_key, content_type, size_bytes, duration_ms,
              EXISTS (SELECT 1 FROM stories st WHERE st.media_id = media.id) AS in_story
       FROM media WHERE id = ? AND user_id = ? AND purpose = 'post'`,
    )
    .bind(input.mediaId, author.id)
    .first<{
      id: number;
      kind: "image" | "video";
      status: string;
      object_key: string;
      content_type: string;
      size_bytes: number;
      duration_ms: number | null;
      in_story: number;
    }>();
  if (!media || media.status === "failed") throw fieldError("mediaId", STORY_MEDIA_MISSING);
  if (media.in_story) throw fieldError("mediaId", STORY_MEDIA_IN_STORY);
  if (media.status !== "ready") throw fieldError("mediaId", STORY_MEDIA_NOT_READY);

  let durationMs: number | null = null;
  if (media.kind === "video") {
    const read = async (offset: number, length: number) => {
      const object = await ctx.env.MEDIA.get(media.object_key, { range: { offset, length } });
      return new Uint8Array(object ? await object.arrayBuffer() : new ArrayBuffer(0));
    };
    // A video in Cloudflare Stream has no bytes in R2: Stream measured it when it completed.
    durationMs =
      media.duration_ms ??
      (await videoDurationMs(read, media.size_bytes, media.content_type).catch(() => null)) ??
      input.durationMs;
    if (durationMs === null) throw fieldError("mediaId", STORY_VIDEO_LENGTH_UNKNOWN);
    if (isTooLong(durationMs)) throw fieldError("mediaId", STORY_VIDEO_TOO_LONG);
  }

  const at = isoNow();
  const row = await ctx.db
    .prepare(
      `INSERT INTO stories (creator_id, media_id, text, audience, duration_ms, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (media_id) DO NOTHING RETURNING id`,
    )
    .bind(author.id, media.id, input.text, input.audience, durationMs, at, isoIn(STORY_LIFETIME_MS))
    .first<{ id: number }>();
  if (!row) throw fieldError("mediaId", STORY_MEDIA_IN_STORY);
  return (await storiesByIds(ctx.db, author.id, [row.id]))[0]!;
}

async function storiesByIds(db: D1Database, viewerId: number, ids: number[]): Promise<StoryView[]> {
  const { results } = await db
    .prepare(
      `SELECT ${STORY_COLUMNS} FROM stories st ${STORY_JOINS} WHERE st.id IN (SELECT value FROM json_each(?2)) ORDER BY st.id`,
    )
    .bind(viewerId, JSON.stringify(ids))
    .all<StoryListRow>();
  return results.map((row) => presentStory(row, viewerId));
}

/**
 * The stories bar's statement: the viewer's own stories first, then each followed creator with stories they may
 * see, those with unseen stories first, newest first. The viewer's follows (primary key), then for each a range of
 * stories_creator_live; never a scan of all stories. `explain` gives its EXPLAIN QUERY PLAN (the benchmark's).
 */
export const storiesBarStatement = (db: D1Database, viewerId: number, explain = false) =>
  db
    .prepare(
      `${explain ? "EXPLAIN QUERY PLAN " : ""}SELECT o.id, o.username, o.name, o.avatar_key, COUNT(*) AS count, SUM(v.viewer_id IS NULL) AS unseen, MAX(st.created_at) AS latest_at
       FROM (SELECT f.creator_id FROM follows f WHERE f.follower_id = ?1 UNION ALL SELECT ?1) mine
       JOIN stories st ON st.creator_id = mine.creator_id AND st.expires_at > ?2
       JOIN users o ON o.id = st.creator_id
       LEFT JOIN story_views v ON v.story_id = st.id AND v.viewer_id = ?1
       WHERE ${storyVisibleSql()}
       GROUP BY o.id
       ORDER BY o.id = ?1 DESC, SUM(v.viewer_id IS NULL) > 0 DESC, latest_at DESC, o.id
       LIMIT ${STORIES_BAR_SIZE}`,
    )
    .bind(viewerId, isoNow());

/** The stories bar (storiesBarStatement): one statement. */
export const listStoriesBar = (db: D1Database, viewer: Viewer): Promise<StoriesBarItem[]> =>
  readOne(storiesBarRead(db, viewer));

/** listStoriesBar as a read, for a page that sends it in one batch with its other reads. */
export function storiesBarRead(db: D1Database, viewer: Viewer): Read<StoriesBarItem[]> {
  return {
    statement: storiesBarStatement(db, viewer.id),
    answer: (result) =>
      (result.results as (AuthorRow & { count: number; unseen: number; latest_at: string })[]).map((row) => ({
        creator: presentAuthor(row),
        count: row.count,
        // One's own stories are never "unseen": the ring of "Your story" is grey.
        unseen: row.id === viewer.id ? 0 : row.unseen,
        latestAt: row.latest_at,
      })),
  };
}

/** A creator's stories the viewer may see, oldest first; none (or a creator who is not there for them) is a 404. */
export async function getStoryReel(db: D1Database, viewer: Viewer, username: string): Promise<StoryReel> {
  const { results } = await db
    .prepare(
      `SELECT ${STORY_COLUMNS}, o.username, o.name, o.avatar_key
       FROM users o JOIN stories st ON st.creator_id = o.id AND st.expires_at > ?2
       JOIN media m ON m.id = st.media_id LEFT JOIN story_views v ON v.story_id = st.id AND v.viewer_id = ?1
       WHERE o.username = ?3 AND m.status = 'ready' AND ${storyVisibleSql()}
       ORDER BY st.id`,
    )
    .bind(viewer.id, isoNow(), username)
    .all<StoryListRow & Omit<AuthorRow, "id">>();
  const first = results[0];
  if (!first) throw new AppError("not_found", NO_STORIES_NOW);
  return {
    creator: presentAuthor({ ...first, id: first.creator_id }),
    stories: results.map((row) => presentStory(row, viewer.id)),
  };
}

/** The viewer saw the story: one row per viewer, however often (idempotent). The creator's own looks are not counted. */
export async function markStorySeen(db: D1Database, viewer: Viewer, storyId: number): Promise<void> {
  const story = await requireStoryAccess(db, viewer, storyId, "see");
  if (story.creator_id === viewer.id) return;
  await db
    .prepare("INSERT INTO story_views (story_id, viewer_id, viewed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
    .bind(storyId, viewer.id, isoNow())
    .run();
}

/** Likes or unlikes a story (liking is seeing it, too). */
export async function setStoryLike(
  db: D1Database,
  viewer: Viewer,
  storyId: number,
  liked: boolean,
): Promise<{ liked: boolean }> {
  const story = await requireStoryAccess(db, viewer, storyId, "see");
  if (story.creator_id === viewer.id) throw new AppError("forbidden", INVALID_VALUE);
  await db
    .prepare(
      `INSERT INTO story_views (story_id, viewer_id, viewed_at, liked) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (story_id, viewer_id) DO UPDATE SET liked = excluded.liked`,
    )
    .bind(storyId, viewer.id, isoNow(), liked ? 1 : 0)
    .run();
  return { liked };
}

const VIEWERS_PAGE = 50;

/** Who saw the creator's own story, newest first, with who liked it (the creator only). */
export async function listStoryViewers(
  db: D1Database,
  viewer: Viewer,
  storyId: number,
  after: Cursor | null,
): Promise<{ viewers: StoryViewerItem[]; nextCursor: string | null; viewCount: number; likeCount: number }> {
  const story = await requireStoryAccess(db, viewer, storyId, "manage");
  const { results } = await db
    .prepare(
      `SELECT u.id, u.username, u.name, u.avatar_key, v.viewed_at, v.liked FROM story_views v JOIN users u ON u.id = v.viewer_id
       WHERE v.story_id = ?1 AND (?2 IS NULL OR v.viewed_at < ?2 OR (v.viewed_at = ?2 AND v.viewer_id < ?3))
       ORDER BY v.viewed_at DESC, v.viewer_id DESC LIMIT ${VIEWERS_PAGE + 1}`,
    )
    .bind(storyId, after?.at ?? null, after?.id ?? 0)
    .all<AuthorRow & { viewed_at: string; liked: number }>();
  const page = results.slice(0, VIEWERS_PAGE);
  const last = page.at(-1);
  return {
    viewers: page.map((row) => ({ user: presentAuthor(row), viewedAt: row.viewed_at, liked: row.liked === 1 })),
    nextCursor: results.length > VIEWERS_PAGE && last ? encodeCursor(last.viewed_at, last.id) : null,
    viewCount: story.view_count,
    likeCount: story.like_count,
  };
}

/** A highlight no story is in any more goes (after a story is taken out of it, moved or deleted). */
export const deleteIfEmpty = (db: D1Database, highlightId: number) =>
  db
    .prepare(
      "DELETE FROM story_highlights WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM stories WHERE highlight_id = ?1)",
    )
    .bind(highlightId);

/** The creator deletes their story: the row (and its highlight, if left empty); its file stays in the vault. */
export async function deleteStory(ctx: Pick<DomainContext, "db">, viewer: Viewer, storyId: number): Promise<void> {
  const story = await requireStoryAccess(ctx.db, viewer, storyId, "manage");
  await ctx.db.batch([
    ctx.db.prepare("DELETE FROM stories WHERE id = ? AND creator_id = ?").bind(storyId, viewer.id),
    ...(story.highlight_id !== null ? [deleteIfEmpty(ctx.db, story.highlight_id)] : []),
  ]);
}

/** The ring on a profile's avatar: how many stories of this creator the viewer may see now, and how many unseen (a read for the page's batch). */
export function storyRingRead(
  db: D1Database,
  viewer: Viewer,
  creatorId: number,
): Read<{ count: number; unseen: number }> {
  const statement = db
    .prepare(
      `SELECT COUNT(*) AS count, COALESCE(SUM(v.viewer_id IS NULL AND st.creator_id <> ?1), 0) AS unseen
       FROM stories st JOIN users o ON o.id = st.creator_id LEFT JOIN story_views v ON v.story_id = st.id AND v.viewer_id = ?1
       WHERE st.creator_id = ?3 AND st.expires_at > ?2 AND ${storyVisibleSql()}`,
    )
    .bind(viewer.id, isoNow(), creatorId);
  return {
    statement,
    answer(result) {
      const row = result.results[0] as { count: number; unseen: number } | undefined;
      return { count: row?.count ?? 0, unseen: row?.unseen ?? 0 };
    },
  };
}
