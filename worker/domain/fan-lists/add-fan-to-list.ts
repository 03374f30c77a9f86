import { requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { isoNow } from "../shared/time";
import { findListableFan } from "./find-listable-fan";

/** PUT /api/lists/{id}/fans/{username}: the fan is in the creator's list (again is the same). */
export async function addFanToList(db: D1Database, viewer: Viewer, listId: number, username: string): Promise<void> {
  const creator = requireListKeeper(viewer);
  const fanId = await findListableFan(db, creator.id, listId, username, true);
  await db
    // The list's owner is asked again: a list deleted meanwhile takes no member (and breaks no foreign key).
    .prepare(
      `INSERT OR IGNORE INTO fan_list_members (list_id, fan_id, added_at)
       SELECT id, ?3, ?4 FROM fan_lists WHERE id = ?2 AND creator_id = ?1`,
    )
    .bind(creator.id, listId, fanId, isoNow())
    .run();
}
