import type { FanListBody, FanListSummary } from "@shared/contracts/fan-lists";
import { message } from "@shared/messages";
import { requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";

/** How many lists of their own a creator keeps at most: each is a line of every "Add to list" menu. */
const MAX_CUSTOM_LISTS = 100;

const TOO_MANY_LISTS = message("You have {{max}} lists, the most there can be. Delete one to make another.");
export const NAME_TAKEN = message("You already have a list with this name.");

/** A refusal of the unique (creator, name) key: another list of the creator has the name. */
export const isNameTaken = (error: unknown) => String(error).includes("UNIQUE constraint failed: fan_lists");

/** POST /api/lists: a new, empty custom list. */
export async function createFanList(db: D1Database, viewer: Viewer, body: FanListBody): Promise<FanListSummary> {
  const creator = requireListKeeper(viewer);
  let created: { id: number; name: string } | null;
  try {
    // The limit is part of the insert, so two requests at once cannot both pass it.
    created = await db
      .prepare(
        `INSERT INTO fan_lists (creator_id, name, created_at)
         SELECT ?1, ?2, ?3 WHERE (SELECT COUNT(*) FROM fan_lists WHERE creator_id = ?1) < ?4 RETURNING id, name`,
      )
      .bind(creator.id, body.name, isoNow(), MAX_CUSTOM_LISTS)
      .first<{ id: number; name: string }>();
  } catch (error) {
    if (isNameTaken(error)) throw fieldError("name", NAME_TAKEN);
    throw error;
  }
  if (!created) throw new AppError("validation", TOO_MANY_LISTS, {}, { max: MAX_CUSTOM_LISTS });
  return { ref: `custom:${created.id}`, kind: "custom", name: created.name, count: 0 };
}
