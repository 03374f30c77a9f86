/**
 * The hot writes whose session check rides their first batch of reads (issue 16: one D1 round trip fewer each).
 *
 * Every write confirms its session with D1 before it writes or answers. Most read the session first, a round trip
 * of its own. The writes below start from the isolate's copy of the session, if it has one from the last seconds
 * (worker/domain/auth/sessions.ts), and send the read that confirms it with the first batch their handler reads
 * (worker/db/request-database.ts, `SessionCheck`): nothing is written before it has passed, and the middleware waits
 * for it before the answer leaves (worker/http/middleware.ts, `resolveSession`). When it fails:
 * - the session has ended: 401, and nothing was written;
 * - the user's row changed since the copy (a role, a verified email, a name): nothing was written, and the request
 *   runs once more from the start with the session read from D1, as any other write, so it answers exactly what a
 *   fresh read would have (`runAgain`, `withSessionRetry`).
 *
 * A path belongs here when its handler's first work is reads through the request's database (no other side
 * effect before them) and it changes nothing of the user's own row that the copy is read for afterwards (a follow
 * moves the user's following count, which only picks the timeline's query plan; the Home mark, which the copy's
 * next /api/updates reads, is why POST /api/home/seen reads the session first and drops the copy).
 * tests/worker/session-check.test.ts checks each path is a route.
 */
export const SESSION_CHECK_RIDES: ReadonlyArray<readonly [method: string, path: RegExp]> = [
  ["POST", /^\/api\/users\/[^/]+\/tips$/],
  ["POST", /^\/api\/posts\/[^/]+\/tips$/],
  ["POST", /^\/api\/conversations\/[^/]+\/tips$/],
  ["POST", /^\/api\/live\/[^/]+\/tips$/],
  ["POST", /^\/api\/conversations\/[^/]+\/messages$/],
  ["POST", /^\/api\/posts\/[^/]+\/like$/],
  ["DELETE", /^\/api\/posts\/[^/]+\/like$/],
  ["POST", /^\/api\/posts\/[^/]+\/comments$/],
  ["POST", /^\/api\/posts\/[^/]+\/purchase$/],
  ["POST", /^\/api\/messages\/[^/]+\/unlock$/],
  ["POST", /^\/api\/conversations\/[^/]+\/read$/],
  ["POST", /^\/api\/posts\/[^/]+\/bookmark$/],
  ["DELETE", /^\/api\/posts\/[^/]+\/bookmark$/],
  ["POST", /^\/api\/users\/[^/]+\/follow$/],
  ["DELETE", /^\/api\/users\/[^/]+\/follow$/],
  ["POST", /^\/api\/users\/[^/]+\/subscribe$/],
];

export const sessionCheckRides = (method: string, path: string) => SESSION_CHECK_RIDES.some(([m, pattern]) => m === method && pattern.test(path));

/** The second runs: their session is read from D1 first. */
const secondRuns = new WeakSet<Request>();
export const isSecondRun = (request: Request) => secondRuns.has(request);

/** The second run a first run asked for (`runAgain`), by the first run's request. */
const reruns = new WeakMap<Request, Request>();

/**
 * Asks for `request` to run once more from the start, its session read from D1 first; `body` is the body its first
 * run read (the router keeps it: the request's own stream is spent by then).
 */
export function runAgain(request: Request, body: string) {
  const headers = new Headers(request.headers);
  headers.delete("Content-Length");
  const again = new Request(request.url, { method: request.method, headers, body: body === "" ? null : body });
  secondRuns.add(again);
  reruns.set(request, again);
}

type Fetch<E, C> = (request: Request, env: E, ctx: C) => Response | Promise<Response>;

/** Runs a write again, once, with its session read from D1, when its first run found its copy out of date. */
export function withSessionRetry<E, C>(fetch: Fetch<E, C>): Fetch<E, C> {
  return async (request, env, ctx) => {
    const response = await fetch(request, env, ctx);
    const again = reruns.get(request);
    if (!again) return response;
    await response.body?.cancel();
    return fetch(again, env, ctx);
  };
}
