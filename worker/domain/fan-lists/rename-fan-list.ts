import type { FanListBody, FanListSummary } from "@shared/contracts/fan-lists";
import { NO_SUCH_LIST, requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { AppError, fieldError } from "../shared/errors";
import { isNameTaken, NAME_TAKEN } from "./create-fan-list";

/** PATCH /api/lists/{id}: a new name for one of the creator's lists (another creator's list is not found). */
export async function renameFanList(
  db: D1Database,
  viewer: Viewer,
  listId: number,
  body: FanListBody,
): Promise<FanListSummary> {
  const creator = requireListKeeper(viewer);
  let renamed: { id: number; name: string; count: number } | null;
  try {
    renamed = await db
      .prepare(
        `UPDATE fan_lists SET name = ?3 WHERE id = ?2 AND creator_id = ?1
         RETURNING id, name, (SELECT COUNT(*) FROM fan_list_members WHERE list_id = ?2) AS count`,
      )
      .bind(creator.id, listId, body.name)
      .first<{ id: number; name: string; count: number }>();
  } catch (error) {
    if (isNameTaken(error)) throw fieldError("name", NAME_TAKEN);
    throw error;
  }
  if (!renamed) throw new AppError("not_found", NO_SUCH_LIST);
  return { ref: `custom:${renamed.id}`, kind: "custom", name: renamed.name, count: renamed.count };
}
