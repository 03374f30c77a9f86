import {
  lockOf,
  VIEWER_FACTS_SQL,
  viewerFactsOf,
  type Audience,
  type LockReason,
  type ViewerFactsRow,
} from "../posts/access";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { readOne, type Read } from "../shared/reads";
import { visibleMemberSql } from "./members";
import type { PostPermissions } from "@shared/contracts/posts";
export { type PostPermissions };

/**
 * The posts policy. The rule is `lockOf` (worker/domain/posts/access.ts) over the viewer's facts that
 * VIEWER_FACTS_SQL computes in the reading statement; existence is `visiblePostSql`, embedded in the WHERE of
 * every query that shows posts (timeline, profile, search, bookmarks, /post/{id}, the commands on a post and
 * its media), so no page can hold a post that does not exist for its viewer.
 */
export const POST_NOT_FOUND = message("This post does not exist.");
const POST_LOCKED = message("Unlock this post first.");

/** "see": the post exists for the viewer (its text, a tip, a bookmark); "open": its content too. */
export type PostAction = "see" | "open";

/**
 * WHERE fragment: the post `p` (author joined as `u`) exists for the viewer ?1 — published (or, with
 * "own-drafts", the viewer's own scheduled and processing posts as well), author not suspended, no block either
 * way. What the viewer may open is lockOf's answer on the same row.
 */
export const visiblePostSql = (drafts: "published" | "own-drafts" = "published") =>
  `${drafts === "own-drafts" ? "(p.status = 'published' OR p.user_id = ?1)" : "p.status = 'published'"} AND ${visibleMemberSql("u")}`;

export interface PostAccess {
  authorId: number;
  /** What the viewer must still do to open it (null: open). */
  lock: LockReason | null;
  priceCents: number;
  /** Only creators take money (a member who stopped being one keeps their posts). */
  authorIsCreator: boolean;
}

interface PostAccessRow extends ViewerFactsRow {
  id: number;
  user_id: number;
  audience: Audience;
  price_cents: number;
  author_role: string;
}

/** The access of each of `postIds` that exists for the viewer (own drafts included): one statement. */
function postAccessRead(
  db: D1Database,
  viewerId: number | null,
  postIds: readonly number[],
): Read<Map<number, PostAccess>> {
  const statement = db
    .prepare(
      `SELECT p.id, p.user_id, p.audience, p.price_cents, u.role AS author_role, ${VIEWER_FACTS_SQL}
       FROM posts p JOIN users u ON u.id = p.user_id
       WHERE p.id IN (SELECT value FROM json_each(?3)) AND ${visiblePostSql("own-drafts")}`,
    )
    .bind(viewerId, isoNow(), JSON.stringify(postIds));
  return {
    statement,
    answer(result) {
      const access = new Map<number, PostAccess>();
      for (const row of result.results as PostAccessRow[]) {
        const lock = lockOf(
          { authorId: row.user_id, audience: row.audience, priceCents: row.price_cents },
          viewerFactsOf(viewerId, row),
        );
        if (lock !== "hidden")
          access.set(row.id, {
            authorId: row.user_id,
            lock,
            priceCents: row.price_cents,
            authorIsCreator: row.author_role === "creator",
          });
      }
      return access;
    },
  };
}

/**
 * Before a like, comment, bookmark, tip or purchase: the post must exist for the viewer, else 404. "open" also
 * asks that the viewer may open it (a like or a comment is on the content), else 403. Nothing is written by the
 * caller before this passes.
 */
export const requirePostAccess = (
  db: D1Database,
  postId: number,
  viewerId: number | null,
  action: PostAction,
): Promise<PostAccess> => readOne(postAccessCheck(db, postId, viewerId, action));

/** requirePostAccess as a read, for a command that sends it in one batch with its other reads. */
export function postAccessCheck(
  db: D1Database,
  postId: number,
  viewerId: number | null,
  action: PostAction,
): Read<PostAccess> {
  const { statement, answer } = postAccessRead(db, viewerId, [postId]);
  return {
    statement,
    answer(result) {
      const post = answer(result).get(postId);
      if (!post) throw new AppError("not_found", POST_NOT_FOUND);
      if (action === "open" && post.lock !== null) throw new AppError("forbidden", POST_LOCKED);
      return post;
    },
  };
}

/** The pure rule behind PostPermissions, from the same facts the commands check (requirePostAccess, sendTip, purchasePost). */
export function postPermissionsOf(
  post: { authorId: number; authorIsCreator: boolean },
  viewerId: number | null,
  lock: LockReason | null,
): PostPermissions {
  const own = viewerId !== null && viewerId === post.authorId;
  const other = viewerId !== null && !own;
  return {
    canEdit: own,
    canDelete: own,
    canLike: viewerId !== null && lock === null,
    canComment: viewerId !== null && lock === null,
    canBookmark: viewerId !== null,
    canTip: other && post.authorIsCreator,
    canUnlock: other && post.authorIsCreator && lock === "purchase",
    canReport: other,
  };
}
