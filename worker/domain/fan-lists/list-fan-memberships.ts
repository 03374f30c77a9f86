import type { FanMemberships } from "@shared/contracts/fan-lists";
import { message } from "@shared/messages";
import { visibleMemberSql } from "../policies/members";
import { requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { allRows, firstRow, readTogether } from "../shared/reads";

const NO_SUCH_MEMBER = message("This member does not exist.");

/**
 * GET /api/lists/memberships/{username}: each of the creator's lists, saying whether it holds this member (the
 * "Add to list" menu). Only the creator's own lists are read: nobody learns another's lists.
 */
export async function listFanMemberships(db: D1Database, viewer: Viewer, username: string): Promise<FanMemberships> {
  const creator = requireListKeeper(viewer);
  const [member, lists] = await readTogether(db, [
    firstRow<{ id: number }>(
      db
        .prepare(`SELECT u.id FROM users u WHERE u.username = ?2 AND ${visibleMemberSql("u")}`)
        .bind(creator.id, username),
    ),
    allRows<{ id: number; name: string; member: number }>(
      db
        .prepare(
          `SELECT fl.id, fl.name, EXISTS (SELECT 1 FROM fan_list_members fm WHERE fm.list_id = fl.id
             AND fm.fan_id = (SELECT id FROM users WHERE username = ?2)) AS member
           FROM fan_lists fl WHERE fl.creator_id = ?1 ORDER BY fl.id`,
        )
        .bind(creator.id, username),
    ),
  ]);
  if (!member) throw new AppError("not_found", NO_SUCH_MEMBER);
  return { lists: lists.map((list) => ({ id: list.id, name: list.name, member: list.member === 1 })) };
}
