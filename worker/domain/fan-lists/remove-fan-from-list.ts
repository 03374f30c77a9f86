import { requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { findListableFan } from "./find-listable-fan";

/** DELETE /api/lists/{id}/fans/{username}: the fan is no longer in the creator's list (already out is the same). */
export async function removeFanFromList(
  db: D1Database,
  viewer: Viewer,
  listId: number,
  username: string,
): Promise<void> {
  const creator = requireListKeeper(viewer);
  const fanId = await findListableFan(db, creator.id, listId, username, false);
  await db.prepare("DELETE FROM fan_list_members WHERE list_id = ? AND fan_id = ?").bind(listId, fanId).run();
}
