import { NO_SUCH_LIST, OWNED_LIST_SQL, requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";

/** One of the creator's own lists (its name, for its page's title); another creator's is not found. */
export async function findFanList(
  db: D1Database,
  viewer: Viewer,
  listId: number,
): Promise<{ id: number; name: string }> {
  const creator = requireListKeeper(viewer);
  const list = await db.prepare(OWNED_LIST_SQL).bind(creator.id, listId).first<{ id: number; name: string }>();
  if (!list) throw new AppError("not_found", NO_SUCH_LIST);
  return list;
}
