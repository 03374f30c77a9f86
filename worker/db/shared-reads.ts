/**
 * Reads shared across requests (issue 16). A request's reads already go to D1 as one batch per turn
 * (./request-database.ts, `coalescing`); under load, many requests of the same isolate each send such a batch at
 * about the same time, and each batch is a round trip: the dearest thing a request does, here and in production.
 * So while one batch of reads is on its way to D1, the batches other requests send meanwhile wait for it and then
 * go together, as ONE batch: one round trip for all of them (the group commit of payments does the same for
 * writes, ../domain/money/group-commit.ts). A request alone never waits: with nothing in flight its batch goes at
 * once, as before.
 *
 * What each request reads is unchanged:
 * - A batch is a transaction of reads, so every request's statements still see one state, and each request gets
 *   the results of its own statements only.
 * - Read replication: the shared batch goes through a session of its own that satisfies every request in it. The
 *   reads of writes (their checks) go to the primary, in a line of their own, so that reads which may be served by
 *   a replica are never sent to the primary for their sake; the others start at the latest bookmark among them (a
 *   person's own writes), else anywhere. A request then starts its next reads no earlier than the bookmark its last shared
 *   batch reached, so its reads never go back in time (the sequential consistency of one session).
 * - If the shared batch fails (a statement's error), each request's batch is sent again on its own, so one bad
 *   statement fails only its own request, exactly as it would have alone.
 *
 * A group is per isolate and per database binding; how the groups are sent, and by which request, is ./line.ts.
 */
import { createLine, waitingFor, type Line } from "./line";

/** Where a request's reads may be served: the primary, or a replica at least as new as a bookmark (or anywhere). */
export interface ReadConstraint {
  primary: boolean;
  bookmark: string | null;
}

interface Waiting {
  statements: D1PreparedStatement[];
  constraint: ReadConstraint;
  resolve: (answer: SharedAnswer) => void;
  reject: (error: unknown) => void;
}

export interface SharedAnswer {
  results: D1Result[];
  /** The bookmark the batch's session reached (null without the Sessions API). */
  bookmark: string | null;
}

/** The most statements in one shared batch (a page's loaders ask for about ten). */
export const SHARED_STATEMENTS_LIMIT = 100;

/** Bookmarks are fixed-width positions in the database's log: the greater string is the later one. */
export const laterBookmark = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);

/** Per binding: the line of reads that may go anywhere, and the line of the primary's. */
const lines = new WeakMap<D1Database, [Line<Waiting>, Line<Waiting>]>();

const lineFor = (binding: D1Database, primary: boolean): Line<Waiting> => {
  let pair = lines.get(binding);
  if (!pair) {
    const line = () => createLine<Waiting>({ send: (group) => send(binding, group), weight: (item) => item.statements.length, limit: SHARED_STATEMENTS_LIMIT });
    lines.set(binding, (pair = [line(), line()]));
  }
  return pair[primary ? 1 : 0];
};

/** Runs `statements` (read-only) as one batch, with whatever other requests' reads are waiting. */
export function readShared(binding: D1Database, statements: D1PreparedStatement[], constraint: ReadConstraint, keepAlive: (work: Promise<unknown>) => void): Promise<SharedAnswer> {
  const answer = new Promise<SharedAnswer>((resolve, reject) => lineFor(binding, constraint.primary)({ statements, constraint, resolve, reject }, keepAlive));
  return waitingFor(answer);
}

/** The session every request of the group may read through (its line tells whether it is the primary's). */
function sessionFor(binding: D1Database, group: Waiting[]): D1Database | D1DatabaseSession {
  if (typeof binding.withSession !== "function") return binding;
  if (group[0]!.constraint.primary) return binding.withSession("first-primary");
  const bookmark = group.reduce<string | null>((latest, item) => laterBookmark(latest, item.constraint.bookmark), null);
  return binding.withSession(bookmark ?? "first-unconstrained");
}

/** Sends a group and answers each of its requests; whatever goes wrong is an answer too. */
async function send(binding: D1Database, group: Waiting[]): Promise<void> {
  let answers: SharedAnswer[];
  try {
    const session = sessionFor(binding, group);
    const results = await session.batch(group.flatMap((item) => item.statements));
    const bookmark = "getBookmark" in session ? session.getBookmark() : null;
    let offset = 0;
    answers = group.map((item) => {
      const start = offset;
      offset += item.statements.length;
      return { results: results.slice(start, offset), bookmark };
    });
  } catch (error) {
    if (group.length === 1) return group[0]!.reject(error);
    // Each request's batch alone, side by side: only the one with the bad statement fails.
    await Promise.all(group.map((item) => send(binding, [item])));
    return;
  }
  group.forEach((item, index) => item.resolve(answers[index]!));
}
