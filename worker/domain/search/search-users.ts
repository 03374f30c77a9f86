import type { UserSearchResult } from "@shared/contracts/profiles";
import { publicMediaUrl } from "../accounts/users";
import { LIMITS, RateLimiter } from "../auth/rate-limit";
import type { DomainContext } from "../context";
import { geoHiddenSql } from "../policies/members";

const SEARCH_RESULT_LIMIT = 10;

/**
 * Turns what a person typed into an FTS5 query: every word becomes a quoted prefix term, all of them required.
 * Only letters and digits survive, so no FTS5 syntax (quotes, NEAR, column filters, `*`) can be injected.
 * "Mia Riv" → `"mia"* "riv"*`. Null when nothing searchable is left.
 */
export function toPrefixQuery(term: string): string | null {
  const words = term
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 6);
  return words.length ? words.map((word) => `"${word}"*`).join(" ") : null;
}

/**
 * Runs one full-text search for what a person typed, counted against the address's search limit: the count and
 * the search go to D1 in one batch (each keystroke searches). `search` builds the statement from the FTS5 query;
 * nothing searchable left still counts, and answers no rows.
 */
export async function rateLimitedSearch<Row>(
  ctx: Pick<DomainContext, "db" | "config" | "ip">,
  term: string,
  search: (query: string) => D1PreparedStatement,
): Promise<Row[]> {
  const { statement: count, enforce } = new RateLimiter(ctx.db, ctx.config.RATE_LIMIT_SCALE).prepareHit(
    `search:ip:${ctx.ip}`,
    LIMITS.searchPerIp,
  );
  const query = toPrefixQuery(term);
  if (!query) {
    enforce(await count.all());
    return [];
  }
  const [counted, found] = await ctx.db.batch([count, search(query)]);
  enforce(counted!);
  return found!.results as Row[];
}

/**
 * Users whose username or name has words starting with the term's words, best match first, at most 10; not the
 * suspended, nor creators who geo-block the viewer's (null: a visitor's) place.
 */
export async function searchUsers(
  ctx: Pick<DomainContext, "db" | "config" | "ip">,
  viewerId: number | null,
  term: string,
): Promise<UserSearchResult[]> {
  const rows = await rateLimitedSearch<{ username: string; name: string; avatar_key: string | null }>(
    ctx,
    term,
    (query) =>
      ctx.db
        .prepare(
          `SELECT u.username, u.name, u.avatar_key FROM users_search s JOIN users u ON u.id = s.rowid
         WHERE users_search MATCH ?1 AND u.suspended_at IS NULL AND NOT ${geoHiddenSql("u", "?3")}
         ORDER BY s.rank LIMIT ?2`,
        )
        .bind(query, SEARCH_RESULT_LIMIT, viewerId),
  );
  return rows.map((row) => ({ username: row.username, name: row.name, avatarUrl: publicMediaUrl(row.avatar_key) }));
}
