import {
  followsSql,
  LIVE_SUBSCRIPTION_SQL,
  LIVE_SUBSCRIPTIONS_OF_VIEWER,
  subscribesSql,
  visibleMemberSql,
} from "../policies/members";
import { POST_SELECT_SQL, presentPosts, type PostRow, type PostView } from "../posts/present-posts";
import { encodeCursor, type Cursor } from "../shared/cursor";
import { isoNow } from "../shared/time";
import { allRows, readOne, type Read } from "../shared/reads";

const TIMELINE_PAGE_SIZE = 20;
/** New posts fetched at once for "Show N new posts"; more than this waits for the next page load. */
const NEW_POSTS_LIMIT = 50;

export interface TimelinePage {
  posts: PostView[];
  nextCursor: string | null;
}

/**
 * Whose posts the viewer (?1, now ?2) reads: their own, and those of the creators they follow or subscribe to,
 * minus those who do not exist for the viewer (visibleMemberSql: suspended, a block either way). Materialized once
 * per request, so the per-author checks run once per author, not once per post (the post half of visiblePostSql,
 * `status = 'published'`, is in the page's WHERE); `subscribed` opens the Subscribers-posts of that author.
 * Built per request, as visibleMemberSql is (the viewer's place).
 */
const authorsCte = () => `authors(id, subscribed) AS MATERIALIZED (
    SELECT a.id, a.id = ?1 OR ${subscribesSql("?1", "a.id")}
    FROM (SELECT ?1 AS id UNION SELECT creator_id FROM follows WHERE follower_id = ?1
          UNION SELECT s.creator_id FROM ${LIVE_SUBSCRIPTIONS_OF_VIEWER} WHERE s.fan_id = ?1 AND ${LIVE_SUBSCRIPTION_SQL}) a
    JOIN users c ON c.id = a.id
    WHERE ${visibleMemberSql("c")})`;

/**
 * The ids of one page, newest first: posts_feed read newest first per author into a sort bounded by the LIMIT,
 * which lets SQLite leave an author as soon as their next post cannot make the page (a few rows per author, not
 * all of them), so the viewer facts and media are computed for this page's rows only. INDEXED BY because the
 * planner otherwise prefers posts_user_status and sorts every post of every author (25 ms instead of 0.2 ms on
 * the benchmark's data). Followers-posts of a followed author are open; Subscribers-posts need a live
 * subscription; paid posts are kept (shown locked unless bought).
 */
const pageSql = (range: string, order: "DESC" | "ASC") => `WITH ${authorsCte()},
  page AS (
    SELECT p.id FROM authors a JOIN posts p INDEXED BY posts_feed ON p.user_id = a.id
    WHERE p.status = 'published' AND (p.audience <> 'subscribers' OR a.subscribed) AND ${range}
    ORDER BY p.published_at ${order}, p.id ${order} LIMIT ?6)
  ${POST_SELECT_SQL} WHERE p.id IN (SELECT id FROM page) ORDER BY p.published_at DESC, p.id DESC`;

/**
 * The same page read the other way round, for a fan who follows many creators: the newest published posts of
 * everyone (posts_recent, newest first), kept when their author is one the viewer reads (own, followed, subscribed;
 * visible; Subscribers-posts with a live subscription), the walk stopping as soon as the page is full. A page then
 * costs about the page size divided by the followed creators' share of all posts in index entries and probes,
 * however many creators the fan follows, where the per-author way costs a seek per followed author. The walk goes
 * no further back than the RECENT_WINDOW-th newest post (`bound`, read from the index alone), so a fan whose
 * creators have been quiet costs a bounded walk; a window that yields less than a page is not trusted (older posts
 * could be missing): the caller reads the page the per-author way instead. (The window is not a subquery with its
 * own LIMIT: SQLite would materialize and sort all of it, and probe the follows of every post in it.) The author's
 * visibility is an EXISTS, not a join: joined, SQLite built a Bloom filter over every user first (3 ms of a 3.3 ms
 * page on the benchmark's 10,000 users; 0.2 ms without).
 */
const recentPageSql = (range: string) => `WITH bound(at) AS (
    SELECT p.published_at FROM posts p INDEXED BY posts_recent
    WHERE p.status = 'published' AND ${range}
    ORDER BY p.published_at DESC, p.id DESC LIMIT 1 OFFSET ?7),
  page AS (
    SELECT p.id FROM posts p INDEXED BY posts_recent
    WHERE p.status = 'published' AND ${range} AND p.published_at >= coalesce((SELECT at FROM bound), '')
      AND (p.user_id = ?1 OR ${followsSql("?1", "p.user_id")} OR ${subscribesSql("?1", "p.user_id")})
      AND (p.audience <> 'subscribers' OR p.user_id = ?1 OR ${subscribesSql("?1", "p.user_id")})
      AND EXISTS (SELECT 1 FROM users c WHERE c.id = p.user_id AND ${visibleMemberSql("c")})
    ORDER BY p.published_at DESC, p.id DESC LIMIT ?6)
  ${POST_SELECT_SQL} WHERE p.id IN (SELECT id FROM page) ORDER BY p.published_at DESC, p.id DESC`;

/** `?3 = ?3` keeps the three cursor parameters bound when there is no cursor (first page). */
const FIRST_RANGE = "?3 = ?3 AND ?4 = ?4 AND ?5 = ?5";
/** Keyset bounds written as a range on published_at (then the id for ties), so the index seeks to the cursor. */
const OLDER_RANGE = "p.published_at <= ?3 AND (p.published_at < ?4 OR p.id < ?5)";
const NEWER_RANGE = "p.published_at >= ?3 AND (p.published_at > ?4 OR p.id > ?5)";

/**
 * From how many follows a page is read the "recent" way: about where its walk (RECENT_WINDOW posts at most, in
 * practice the page size times the share of all creators the fan follows) becomes cheaper than a seek per author.
 */
export const MANY_FOLLOWS = 200;
/** The most posts the "recent" way walks for one page. */
export const RECENT_WINDOW = 4000;

type Viewer = { id: number; following_count: number };

/** The statement of one timeline page; `explain` asks for its query plan instead (the benchmark prints it). */
export function timelineStatement(
  db: D1Database,
  viewer: Viewer,
  cursor: Cursor | null,
  explain = false,
  now = isoNow(),
  way = wayOf(viewer),
) {
  const range = cursor ? OLDER_RANGE : FIRST_RANGE;
  const sql = way === "recent" ? recentPageSql(range) : pageSql(range, "DESC");
  // ?7, the "recent" way's bound: the offset of the window's oldest post.
  const binds = [
    viewer.id,
    now,
    cursor?.at ?? "",
    cursor?.at ?? "",
    cursor?.id ?? 0,
    TIMELINE_PAGE_SIZE + 1,
    ...(way === "recent" ? [RECENT_WINDOW - 1] : []),
  ];
  return db.prepare(`${explain ? "EXPLAIN QUERY PLAN " : ""}${sql}`).bind(...binds);
}

const wayOf = (viewer: Viewer): "authors" | "recent" => (viewer.following_count >= MANY_FOLLOWS ? "recent" : "authors");

/**
 * /home: a page of the viewer's timeline, newest first, older than `cursor` when given. One statement (a second
 * only when the "recent" way's window held less than a page).
 */
export async function getTimeline(db: D1Database, viewer: Viewer, cursor: Cursor | null): Promise<TimelinePage> {
  return timelinePageOf(db, viewer, cursor, await readOne(timelineRead(db, viewer, cursor)));
}

/** The first statement of getTimeline, for a page that sends it in one batch with its other reads (then timelinePageOf). */
export const timelineRead = (db: D1Database, viewer: Viewer, cursor: Cursor | null): Read<PostRow[]> =>
  allRows<PostRow>(timelineStatement(db, viewer, cursor));

/** The page from timelineRead's rows (reading the "authors" way when the "recent" way's window held less than a page). */
export async function timelinePageOf(
  db: D1Database,
  viewer: Viewer,
  cursor: Cursor | null,
  firstRows: PostRow[],
): Promise<TimelinePage> {
  let results = firstRows;
  if (wayOf(viewer) === "recent" && results.length <= TIMELINE_PAGE_SIZE)
    ({ results } = await timelineStatement(db, viewer, cursor, false, isoNow(), "authors").all<PostRow>());
  const more = results.length > TIMELINE_PAGE_SIZE;
  const rows = results.slice(0, TIMELINE_PAGE_SIZE);
  const last = rows.at(-1);
  return {
    posts: presentPosts(rows, viewer.id),
    nextCursor: more && last ? encodeCursor(last.published_at!, last.id) : null,
  };
}

/** The posts published after `after` (the newest one the viewer has), newest first: the pending "new posts". */
export async function getNewerPosts(db: D1Database, viewerId: number, after: Cursor): Promise<PostView[]> {
  const { results } = await db
    .prepare(pageSql(NEWER_RANGE, "ASC"))
    .bind(viewerId, isoNow(), after.at, after.at, after.id, NEW_POSTS_LIMIT)
    .all<PostRow>();
  return presentPosts(results, viewerId);
}
