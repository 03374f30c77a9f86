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
 *   fresh read would have (`withSessionRetry`).
 *
 * A path belongs here when its handler's first work is reads through the request's database (no other side
 * effect before them) and it does not change the user's own row (a follow or a subscription changes the user's
 * following count, so they read the session first). tests/worker/session-check.test.ts checks each path is a route.
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
];

export const sessionCheckRides = (method: string, path: string) => SESSION_CHECK_RIDES.some(([m, pattern]) => m === method && pattern.test(path));

/** Set on the first run's answer when the copy was out of date; never leaves the Worker. */
export const RUN_AGAIN_HEADER = "X-Session-Changed";

/** The second runs: their session is read from D1 first. */
const secondRuns = new WeakSet<Request>();
export const isSecondRun = (request: Request) => secondRuns.has(request);

type Fetch<E, C> = (request: Request, env: E, ctx: C) => Response | Promise<Response>;

/** Runs a write again, once, with its session read from D1, when its first run found its copy out of date. */
export function withSessionRetry<E, C>(fetch: Fetch<E, C>): Fetch<E, C> {
  return async (request, env, ctx) => {
    const again = sessionCheckRides(request.method, new URL(request.url).pathname) ? (request.clone() as unknown as Request) : null;
    const response = await fetch(request, env, ctx);
    if (!again || !response.headers.has(RUN_AGAIN_HEADER)) return response;
    await response.body?.cancel();
    secondRuns.add(again);
    return fetch(again, env, ctx);
  };
}
