import { message } from "@shared/messages";
import { visibleMemberSql } from "../policies/members";
import { isFanOfSql, NO_SUCH_LIST, OWNED_LIST_SQL } from "../policies/fan-lists";
import { AppError } from "../shared/errors";
import { firstRow, readTogether } from "../shared/reads";

const NO_SUCH_MEMBER = message("This member does not exist.");
const NOT_YOUR_FAN = message(
  "Only your fans can be put in a list: followers, subscribers present or past, and those who paid you.",
);

/**
 * Creator ?1's list `listId` and the member `username`, read together, for adding to or removing from a list: a
 * list of another creator is not found, so is a member who does not exist for the creator (suspended, a block either
 * way); adding someone who is not the creator's fan is refused (422). Removing asks only that the member exists.
 */
export async function findListableFan(
  db: D1Database,
  creatorId: number,
  listId: number,
  username: string,
  forAdding: boolean,
): Promise<number> {
  const [list, member] = await readTogether(db, [
    firstRow<{ id: number }>(db.prepare(OWNED_LIST_SQL).bind(creatorId, listId)),
    firstRow<{ id: number; visible: number; fan: number }>(
      db
        .prepare(
          `SELECT u.id, (${visibleMemberSql("u")}) AS visible, ${isFanOfSql("u")} AS fan FROM users u WHERE u.username = ?2`,
        )
        .bind(creatorId, username),
    ),
  ]);
  if (!list) throw new AppError("not_found", NO_SUCH_LIST);
  if (!member || !member.visible) throw new AppError("not_found", NO_SUCH_MEMBER);
  if (forAdding && !member.fan) throw new AppError("validation", NOT_YOUR_FAN);
  return member.id;
}
