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
 * A group is per isolate and per database binding. The request whose batch leads a group keeps the work alive with
 * waitUntil, so the others' answers do not depend on its client staying connected.
 */

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

interface Line {
  waiting: Waiting[];
  busy: boolean;
}

/** Per binding: the line of reads that may go anywhere, and the line of the primary's. */
const lines = new WeakMap<D1Database, [Line, Line]>();
/** The most statements in one shared batch (a page's loaders ask for about ten). */
export const SHARED_STATEMENTS_LIMIT = 100;

/** Bookmarks are fixed-width positions in the database's log: the greater string is the later one. */
export const laterBookmark = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);

/** Runs `statements` (read-only) as one batch, with whatever other requests' reads are waiting. */
export function readShared(binding: D1Database, statements: D1PreparedStatement[], constraint: ReadConstraint, keepAlive: (work: Promise<unknown>) => void): Promise<SharedAnswer> {
  let pair = lines.get(binding);
  if (!pair) lines.set(binding, (pair = [{ waiting: [], busy: false }, { waiting: [], busy: false }]));
  const queued = pair[constraint.primary ? 1 : 0];
  const answer = new Promise<SharedAnswer>((resolve, reject) => {
    queued.waiting.push({ statements, constraint, resolve, reject });
    if (!queued.busy) keepAlive(drain(binding, queued));
  });
  return waitingFor(answer);
}

/**
 * A request that waits on another's batch (shared reads, a grouped commit) has no I/O of its own meanwhile, and
 * workerd would take it for hung (and cancel it): a timer of its own keeps it visibly waiting until its answer comes.
 */
export async function waitingFor<T>(answer: Promise<T>): Promise<T> {
  const heartbeat = setInterval(() => {}, 20);
  try {
    return await answer;
  } finally {
    clearInterval(heartbeat);
  }
}

/** Sends groups until nobody waits. */
async function drain(binding: D1Database, line: Line): Promise<void> {
  line.busy = true;
  try {
    while (line.waiting.length > 0) await send(binding, takeGroup(line.waiting));
  } finally {
    line.busy = false;
  }
}

/** The first waiting batches, up to SHARED_STATEMENTS_LIMIT statements (always at least one batch). */
function takeGroup(waiting: Waiting[]): Waiting[] {
  let count = 0;
  let size = 0;
  while (size < waiting.length && (size === 0 || count + waiting[size]!.statements.length <= SHARED_STATEMENTS_LIMIT)) count += waiting[size++]!.statements.length;
  return waiting.splice(0, size);
}

/** The session every request of the group may read through. */
function sessionFor(binding: D1Database, group: Waiting[]): D1Database | D1DatabaseSession {
  if (typeof binding.withSession !== "function") return binding;
  if (group[0]!.constraint.primary) return binding.withSession("first-primary");
  const bookmark = group.reduce<string | null>((latest, item) => laterBookmark(latest, item.constraint.bookmark), null);
  return binding.withSession(bookmark ?? "first-unconstrained");
}

async function send(binding: D1Database, group: Waiting[]): Promise<void> {
  const session = sessionFor(binding, group);
  let results: D1Result[];
  try {
    results = await session.batch(group.flatMap((item) => item.statements));
  } catch (error) {
    if (group.length === 1) return group[0]!.reject(error);
    // Each request's batch alone, side by side: only the one with the bad statement fails.
    await Promise.all(group.map((item) => send(binding, [item])));
    return;
  }
  const bookmark = "getBookmark" in session ? session.getBookmark() : null;
  let offset = 0;
  for (const item of group) {
    item.resolve({ results: results.slice(offset, offset + item.statements.length), bookmark });
    offset += item.statements.length;
  }
}
