/**
 * Read-your-writes with D1's Sessions API (read replication). Each request talks to D1 through one session:
 * - a read (GET, HEAD) starts at the bookmark the client carries (cookie `__Host-d1b`, or header `X-D1-Bookmark`
 *   for API clients), else anywhere ("first-unconstrained"): the nearest replica may serve it;
 * - a write starts at the primary ("first-primary"), so its checks read the newest state;
 * - after a write, the answer carries the session's bookmark (worker/http/middleware.ts), so the person's next
 *   reads, wherever they land, see their own write.
 * Locally (a local run, the tests) there is one database and no replica: the same code runs.
 * docs/decisions/plain-data-access.md
 */

export const BOOKMARK_COOKIE = "__Host-d1b";
export const BOOKMARK_HEADER = "X-D1-Bookmark";
const BOOKMARK_SHAPE = /^[0-9A-Za-z-]{1,128}$/;
const BOOKMARK_IN_COOKIES = new RegExp(`(?:^|;\\s*)${BOOKMARK_COOKIE}=([^;]+)`);

const isRead = (method: string) => method === "GET" || method === "HEAD";

/** The bookmark the client sent (header first, then cookie), if it is well formed. */
export function incomingBookmark(request: Request): string | null {
  const header = request.headers.get(BOOKMARK_HEADER);
  const cookie = BOOKMARK_IN_COOKIES.exec(request.headers.get("Cookie") ?? "")?.[1] ?? null;
  const value = header ?? cookie;
  return value && BOOKMARK_SHAPE.test(value) ? value : null;
}

export interface RequestDatabase {
  /** The request's D1 session: a plain D1Database to the code that uses it. */
  db: D1Database;
  /** Where the session has reached (to hand back after a write), or null without the Sessions API. */
  bookmark(): string | null;
}

/** The D1 session of one request, started where its method and the client's bookmark say. */
export function requestDatabase(binding: D1Database, request: Request): RequestDatabase {
  if (typeof binding.withSession !== "function") return { db: binding, bookmark: () => null };
  const read = isRead(request.method);
  const session = binding.withSession(
    (read ? incomingBookmark(request) : null) ?? (read ? "first-unconstrained" : "first-primary"),
  );
  return { db: session as unknown as D1Database, bookmark: () => session.getBookmark() };
}
