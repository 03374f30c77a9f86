import type { HighlightView, KeepStoryInput, StoryReel } from "@shared/contracts/stories";
import { publicMediaUrl } from "../accounts/users";
import { mediaUrl } from "../media/uploads";
import type { Viewer } from "../policies/policy";
import { requireStoryAccess, storyVisibleSql } from "../policies/stories";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { HIGHLIGHT_NOT_FOUND } from "./rules";
import { deleteIfEmpty, presentStory, STORY_COLUMNS, STORY_JOINS, type StoryListRow } from "./stories";
import { readOne, type Read } from "../shared/reads";

/**
 * Highlights: a creator keeps some stories on their profile after the 24 hours, in named groups. The stories in a
 * highlight keep their audience: a highlight shows each person only the stories they may see, and is not listed
 * for someone who may see none of them.
 */

/** Keeps the creator's story in one of their highlights, or in a new one with the title given. */
export async function keepStoryInHighlight(
  db: D1Database,
  viewer: Viewer,
  storyId: number,
  input: KeepStoryInput,
): Promise<{ highlightId: number }> {
  const story = await requireStoryAccess(db, viewer, storyId, "manage");
  let highlightId: number;
  if (input.highlightId !== undefined) {
    const own = await db
      .prepare("SELECT id FROM story_highlights WHERE id = ? AND creator_id = ?")
      .bind(input.highlightId, viewer.id)
      .first<{ id: number }>();
    if (!own) throw new AppError("not_found", HIGHLIGHT_NOT_FOUND);
    highlightId = own.id;
  } else {
    const created = await db
      .prepare("INSERT INTO story_highlights (creator_id, title, created_at) VALUES (?, ?, ?) RETURNING id")
      .bind(viewer.id, input.title!, isoNow())
      .first<{ id: number }>();
    highlightId = created!.id;
  }
  await db.batch([
    db
      .prepare("UPDATE stories SET highlight_id = ? WHERE id = ? AND creator_id = ?")
      .bind(highlightId, storyId, viewer.id),
    // Moved out of another highlight, which may be left empty.
    ...(story.highlight_id !== null && story.highlight_id !== highlightId
      ? [deleteIfEmpty(db, story.highlight_id)]
      : []),
  ]);
  return { highlightId };
}

/**
 * Takes the story out of its highlight: past its 24 hours, it is then gone (the cron deletes it). A highlight left
 * empty goes too (as when a story is moved to another highlight or deleted).
 */
export async function removeStoryFromHighlight(db: D1Database, viewer: Viewer, storyId: number): Promise<void> {
  const story = await requireStoryAccess(db, viewer, storyId, "manage");
  if (story.highlight_id === null) return;
  await db.batch([
    db.prepare("UPDATE stories SET highlight_id = NULL WHERE id = ?").bind(storyId),
    deleteIfEmpty(db, story.highlight_id),
  ]);
}

/** Deletes a highlight of the creator's; its stories stay until their own 24 hours are over. */
export async function deleteHighlight(db: D1Database, viewer: Viewer, highlightId: number): Promise<void> {
  const gone = await db
    .prepare("DELETE FROM story_highlights WHERE id = ? AND creator_id = ? RETURNING id")
    .bind(highlightId, viewer.id)
    .first();
  if (!gone) throw new AppError("not_found", HIGHLIGHT_NOT_FOUND);
}

/** A creator's highlights as the viewer may see them: each with the stories in it the viewer may see, and a cover. */
export const listHighlights = (db: D1Database, viewer: Viewer, creatorId: number): Promise<HighlightView[]> =>
  readOne(highlightsRead(db, viewer, creatorId));

/** listHighlights as a read, for a page that sends it in one batch with its other reads. */
export function highlightsRead(db: D1Database, viewer: Viewer, creatorId: number): Read<HighlightView[]> {
  const statement = db
    .prepare(
      `WITH kept AS (
         SELECT st.highlight_id, COUNT(*) AS count, MIN(st.id) AS first_id
         FROM stories st JOIN users o ON o.id = st.creator_id
         WHERE st.creator_id = ?3 AND st.highlight_id IS NOT NULL AND ${storyVisibleSql()}
         GROUP BY st.highlight_id)
       SELECT h.id, h.title, kept.count, m.kind, m.object_key, m.marked_key, m.poster_key
       FROM kept JOIN story_highlights h ON h.id = kept.highlight_id JOIN stories s1 ON s1.id = kept.first_id JOIN media m ON m.id = s1.media_id
       ORDER BY h.id`,
    )
    .bind(viewer.id, isoNow(), creatorId);
  return {
    statement,
    answer: (result) =>
      (
        result.results as {
          id: number;
          title: string;
          count: number;
          kind: "image" | "video";
          object_key: string;
          marked_key: string | null;
          poster_key: string | null;
        }[]
      ).map((row) => ({
        id: row.id,
        title: row.title,
        count: row.count,
        // The poster: a video's frame, or the small copy of a photo its uploader's browser made; else the photo itself.
        coverUrl: row.poster_key
          ? mediaUrl(row.poster_key)
          : row.kind === "image"
            ? mediaUrl(creatorId === viewer.id ? row.object_key : (row.marked_key ?? row.object_key))
            : null,
      })),
  };
}

/** The creator's own highlights by title, for "Add to highlight". */
export async function listOwnHighlightTitles(db: D1Database, viewer: Viewer): Promise<{ id: number; title: string }[]> {
  const { results } = await db
    .prepare("SELECT id, title FROM story_highlights WHERE creator_id = ? ORDER BY id")
    .bind(viewer.id)
    .all<{ id: number; title: string }>();
  return results;
}

/** A highlight's stories the viewer may see, oldest first, played like a creator's stories; none is a 404. */
export async function getHighlightReel(
  db: D1Database,
  viewer: Viewer,
  highlightId: number,
): Promise<StoryReel & { highlight: { id: number; title: string } }> {
  const { results } = await db
    .prepare(
      `SELECT ${STORY_COLUMNS}, o.username, o.name, o.avatar_key, h.title AS highlight_title
       FROM story_highlights h JOIN stories st ON st.highlight_id = h.id ${STORY_JOINS}
       WHERE h.id = ?3 AND m.status = 'ready' AND ${storyVisibleSql()}
       ORDER BY st.id`,
    )
    .bind(viewer.id, isoNow(), highlightId)
    .all<StoryListRow & { username: string; name: string; avatar_key: string | null; highlight_title: string }>();
  const first = results[0];
  if (!first) throw new AppError("not_found", HIGHLIGHT_NOT_FOUND);
  return {
    highlight: { id: highlightId, title: first.highlight_title },
    creator: {
      id: first.creator_id,
      username: first.username,
      name: first.name,
      avatarUrl: publicMediaUrl(first.avatar_key),
    },
    stories: results.map((row) => presentStory(row, viewer.id)),
  };
}
