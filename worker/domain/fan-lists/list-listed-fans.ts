import { parseListRef, type ListedFanPage, type ListRef } from "@shared/contracts/fan-lists";
import { visibleMemberSql } from "../policies/members";
import { NO_SUCH_LIST, OWNED_LIST_SQL, requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { allRows, firstRow, readTogether } from "../shared/reads";
import { isoNow } from "../shared/time";
import { publicMediaUrl } from "../accounts/users";
import { listFansSql, paidInPeriodSql } from "./audience";

const LIST_PAGE_SIZE = 20;

interface ListedFanRow {
  id: number;
  username: string;
  name: string;
  avatar_key: string | null;
  spent_cents: number;
  last_active_at: string | null;
}

/** What member `u` spent with creator ?1 in a period ("all": ever): one range of payments_spent_with_creator. */
const spentSql = (period: string) =>
  `(SELECT COALESCE(SUM(p.amount_cents), 0) FROM payments p WHERE ${paidInPeriodSql(period)} AND p.user_id = u.id)`;

/** When member `u` last used a session ('' is a session from before the column was kept). */
const LAST_ACTIVE_SQL =
  "(SELECT MAX(se.last_active_at) FROM sessions se WHERE se.user_id = u.id AND se.last_active_at <> '')";

/** `u` matches the search ?5 (a LIKE pattern) by username or name. */
const SEARCH_SQL = "(u.username LIKE ?5 ESCAPE '\\' OR u.name LIKE ?5 ESCAPE '\\')";

/**
 * One page of a list. ?1 the creator, ?2 now, ?3 and ?4 the cursor (spent, fan id), ?5 the search pattern, ?6 the
 * page size plus one. Most lists go by fan id, newest account first: a custom list walks its primary key backwards
 * from the cursor, the others their own index. Top spenders go by what each spent in the period, most first (their
 * sums are made for the whole list, then sorted).
 */
function listedFansPageSql(ref: ListRef, withCursor: boolean, withSearch: boolean): string {
  const list = parseListRef(ref);
  const visible = `${visibleMemberSql("u")}${withSearch ? ` AND ${SEARCH_SQL}` : ""}`;
  const columns = `u.id, u.username, u.name, u.avatar_key, ${LAST_ACTIVE_SQL} AS last_active_at`;
  if (list.kind === "top-spenders") {
    return `SELECT ${columns}, l.spent AS spent_cents FROM
      (SELECT p.user_id AS fan, SUM(p.amount_cents) AS spent FROM payments p WHERE ${paidInPeriodSql(list.period)} GROUP BY p.user_id) l
      JOIN users u ON u.id = l.fan
      WHERE ${visible} ${withCursor ? "AND (l.spent, l.fan) < (?3, ?4)" : ""}
      ORDER BY l.spent DESC, l.fan DESC LIMIT ?6`;
  }
  return `SELECT ${columns}, ${spentSql("all")} AS spent_cents FROM (${listFansSql(ref)}) l JOIN users u ON u.id = l.fan
    WHERE ${visible} ${withCursor ? "AND l.fan < ?4" : ""}
    ORDER BY l.fan DESC LIMIT ?6`;
}

/** A LIKE pattern of `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (wildcard) => `\\${wildcard}`)}%`;

/** The cursor of the page after `last`: its fan id, after what they spent for top spenders. */
const cursorAfter = (ref: ListRef, last: ListedFanRow) =>
  ref.startsWith("top-spenders:") ? `${last.spent_cents}.${last.id}` : String(last.id);

/**
 * GET /api/lists/{ref}/fans and a list's page: the fans of one list with what they spent with the creator and when
 * they were last active, searchable by username or name, one statement per keyset page. Blocked and suspended
 * members are left out like everywhere; a custom list of another creator is not found.
 */
export async function listListedFans(
  db: D1Database,
  viewer: Viewer,
  ref: ListRef,
  options: { q?: string | undefined; cursor?: string | undefined },
): Promise<ListedFanPage> {
  const creator = requireListKeeper(viewer);
  const [spent, id] = (options.cursor ?? "").includes(".")
    ? options.cursor!.split(".").map(Number)
    : [null, options.cursor ? Number(options.cursor) : null];
  const q = options.q?.trim() ? containing(options.q.trim()) : null;
  const page = db
    .prepare(listedFansPageSql(ref, id !== null, q !== null))
    .bind(creator.id, isoNow(), spent ?? 0, id, q, LIST_PAGE_SIZE + 1);
  const list = parseListRef(ref);
  const [owned, rows] = await readTogether(db, [
    firstRow<{ id: number }>(
      list.kind === "custom" ? db.prepare(OWNED_LIST_SQL).bind(creator.id, list.id) : db.prepare("SELECT 1 AS id"),
    ),
    allRows<ListedFanRow>(page),
  ]);
  if (!owned) throw new AppError("not_found", NO_SUCH_LIST);
  const shown = rows.slice(0, LIST_PAGE_SIZE);
  const last = shown.at(-1);
  return {
    fans: shown.map((row) => ({
      userId: row.id,
      username: row.username,
      name: row.name,
      avatarUrl: publicMediaUrl(row.avatar_key),
      spentCents: row.spent_cents,
      lastActiveAt: row.last_active_at,
    })),
    nextCursor: rows.length > LIST_PAGE_SIZE && last ? cursorAfter(ref, last) : null,
  };
}
