import type { FanLists, FanListSummary, ListRef } from "@shared/contracts/fan-lists";
import { SYSTEM_LISTS } from "@shared/contracts/fan-lists";
import { visibleMemberSql } from "../policies/members";
import { requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { allRows, firstRow, readTogether } from "../shared/reads";
import { isoNow } from "../shared/time";
import { listFansSql } from "./audience";

/** The system lists /lists shows, in its order: the five kept lists, then the top spenders of the last 30 days. */
const SHOWN_SYSTEM_LISTS: readonly ListRef[] = [...SYSTEM_LISTS, "top-spenders:30"];

/** How many visible fans (no block either way, not suspended) of creator ?1 one list holds. */
const countSql = (ref: ListRef) =>
  `SELECT COUNT(*) AS count FROM (${listFansSql(ref)}) l JOIN users u ON u.id = l.fan WHERE ${visibleMemberSql("u")}`;

/** The creator's custom lists, oldest first, each with its visible fans counted. */
const CUSTOM_LISTS_SQL = `SELECT fl.id, fl.name, COUNT(u.id) AS count FROM fan_lists fl
  LEFT JOIN fan_list_members fm ON fm.list_id = fl.id
  LEFT JOIN users u ON u.id = fm.fan_id AND ${visibleMemberSql("u")}
  WHERE fl.creator_id = ?1 GROUP BY fl.id ORDER BY fl.id`;

/** GET /api/lists and /lists: the system lists with their counts, then the creator's own, in one round trip. */
export async function listFanLists(db: D1Database, viewer: Viewer): Promise<FanLists> {
  const creator = requireListKeeper(viewer);
  const now = isoNow();
  const counts = SHOWN_SYSTEM_LISTS.map((ref) =>
    firstRow<{ count: number }>(db.prepare(countSql(ref)).bind(creator.id, now)),
  );
  const custom = allRows<{ id: number; name: string; count: number }>(db.prepare(CUSTOM_LISTS_SQL).bind(creator.id));
  const [customLists, ...systemCounts] = await readTogether(db, [custom, ...counts]);
  const system: FanListSummary[] = SHOWN_SYSTEM_LISTS.map((ref, index) => ({
    ref,
    kind: "system",
    name: null,
    count: systemCounts[index]?.count ?? 0,
  }));
  return {
    lists: [
      ...system,
      ...customLists.map((list): FanListSummary => ({
        ref: `custom:${list.id}`,
        kind: "custom",
        name: list.name,
        count: list.count,
      })),
    ],
  };
}
