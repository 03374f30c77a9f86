import { NO_SUCH_LIST, requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";

/** DELETE /api/lists/{id}: one of the creator's lists goes, with its members (the fans themselves stay). */
export async function deleteFanList(db: D1Database, viewer: Viewer, listId: number): Promise<void> {
  const creator = requireListKeeper(viewer);
  const [, deleted] = await db.batch([
    db
      .prepare(
        "DELETE FROM fan_list_members WHERE list_id = (SELECT id FROM fan_lists WHERE id = ?2 AND creator_id = ?1)",
      )
      .bind(creator.id, listId),
    db.prepare("DELETE FROM fan_lists WHERE id = ?2 AND creator_id = ?1").bind(creator.id, listId),
  ]);
  if (deleted!.meta.changes === 0) throw new AppError("not_found", NO_SUCH_LIST);
}
