export { decodeCursor, encodeCursor, type Cursor } from "@shared/cursor";

/** WHERE fragment for rows older than the cursor (bind at, at, id in that order). */
export const OLDER_THAN_CURSOR_SQL = "(p.published_at < ? OR (p.published_at = ? AND p.id < ?))";
