/**
 * The database one request talks to (issue 16): a D1 session (read replication) and, for reads, one round trip
 * for the statements its loaders ask for at the same time.
 *
 * Read replication (D1's Sessions API). In production D1 can keep read replicas near the Worker; a request reads
 * through `withSession`, and a session is sequentially consistent: its reads see everything up to its bookmark.
 * - A read (GET, HEAD) starts at the bookmark the client carries (cookie `__Host-d1b`, or header `X-D1-Bookmark`
 *   for API clients), else anywhere ("first-unconstrained"): the nearest replica serves timelines, profiles, lists.
 * - A write starts at the primary ("first-primary"): its checks read the newest state.
 * - After a write, the response carries the session's bookmark (the cookie and the header), so the person's next
 *   reads, wherever they land, see their own write. Reads do not move it.
 * Locally (wrangler dev, the tests) there is one database and no replica: the same code runs, every session reads
 * the one copy, and a bookmark, when the runtime gives one, is carried all the same.
 *
 * Coalescing. A page runs several loaders at once (the root's badges, the page's data); each asks D1 for a few
 * independent reads. The SELECTs issued in the same turn of the event loop go to D1 as ONE batch (one
 * round trip instead of one each), and so does an explicit `batch` of SELECTs (its statements stay together). A
 * batch is a transaction of reads, so they see one state; if the batch fails, each caller's statements run again
 * on their own (a statement alone, a batch as its own batch), so one bad statement fails only its own caller.
 * Writes, batches with a write, and `raw()` are never held back. Writes (POST…) coalesce their independent reads
 * the same way. A request's batch of reads then shares its round trip with the batches other requests of the
 * isolate send while one is on its way to D1 (./shared-reads.ts): under load, one trip serves many requests.
 */
import { laterBookmark, readShared } from "./shared-reads";

export const BOOKMARK_COOKIE = "__Host-d1b";
export const BOOKMARK_HEADER = "X-D1-Bookmark";
const BOOKMARK_SHAPE = /^[0-9A-Za-z-]{1,128}$/;

/** The binding a request database came from, for work shared across requests (worker/domain/money/group-commit.ts). */
export const BINDING = Symbol("d1-binding");
/** The request's waitUntil, for work it leads on behalf of other requests. */
const KEEP_ALIVE = Symbol("d1-keep-alive");
/** Takes a bookmark reached on the request's behalf through another session (a grouped commit). */
const NOTE_BOOKMARK = Symbol("d1-note-bookmark");

/** Waits until the session check riding the request's first batch has passed (see `SessionCheck`). */
const CHECKED = Symbol("d1-session-checked");

type Extras = {
  [BINDING]: D1Database;
  [KEEP_ALIVE]: (work: Promise<unknown>) => void;
  [NOTE_BOOKMARK]: (bookmark: string | null) => void;
  [CHECKED]: () => Promise<void>;
};

/**
 * A write that starts from the isolate's copy of its session confirms the copy with D1 (worker/http/session-check.ts):
 * `query` reads the session again and `check` throws when the answer does not confirm the copy. The read
 * rides the request's first batch of reads instead of a round trip of its own, and nothing is written before it
 * has passed: every write through this database (a statement, a batch, a grouped commit) waits for it, and the
 * reads that rode with it are handed over only once it has passed (a failed check rejects them with its error).
 * A request that never reads before it writes sends it alone first, as before.
 */
export interface SessionCheck {
  /** The read that confirms the copy, and its parameters. */
  query: string;
  params: unknown[];
  /** Throws unless the answer confirms the copy. */
  check(result: D1Result): void;
}

export interface RequestDatabase {
  db: D1Database;
  /** The bookmark to hand back to the client (after a write), or null. */
  bookmark(): string | null;
  /** A later bookmark reached through another session on this request's behalf (a grouped commit). */
  noteBookmark(bookmark: string | null): void;
  /** Sets the session check that rides the first batch (once, before the request's first statement). */
  checkSession(check: SessionCheck): void;
  /** Resolves once the session check has passed (sending it now if nothing took it along); rejects if it failed. */
  sessionChecked(): Promise<void>;
}

const isRead = (method: string) => method === "GET" || method === "HEAD";

const BOOKMARK_IN_COOKIES = new RegExp(`(?:^|;\\s*)${BOOKMARK_COOKIE}=([^;]+)`);

export function incomingBookmark(request: Request): string | null {
  const header = request.headers.get(BOOKMARK_HEADER);
  const cookie = BOOKMARK_IN_COOKIES.exec(request.headers.get("Cookie") ?? "")?.[1] ?? null;
  const value = header ?? cookie;
  return value && BOOKMARK_SHAPE.test(value) ? value : null;
}

export { laterBookmark };

export function requestDatabase(binding: D1Database, request: Request, keepAlive: (work: Promise<unknown>) => void): RequestDatabase {
  const read = isRead(request.method);
  const incoming = read ? incomingBookmark(request) : null;
  const session = typeof binding.withSession === "function" ? binding.withSession(incoming ?? (read ? "first-unconstrained" : "first-primary")) : null;
  let noted: string | null = null;
  const noteBookmark = (bookmark: string | null) => {
    noted = laterBookmark(noted, bookmark);
  };
  /** Where the request's own session (its writes) and the grouped commits it waited for have reached. */
  const reached = () => laterBookmark(session?.getBookmark() ?? null, noted);
  // The request's batches of reads share round trips with other requests' (./shared-reads.ts); its next reads
  // start no earlier than where its last ones were served, nor than what it wrote itself.
  let seen = incoming;
  const shared = (statements: D1PreparedStatement[]) =>
    readShared(binding, statements, { primary: !read, bookmark: laterBookmark(seen, reached()) }, keepAlive).then(({ results, bookmark }) => {
      if (read) seen = laterBookmark(seen, bookmark);
      return results;
    });
  const db = (session ?? binding) as D1Database;
  const checks = sessionChecks(db);
  return {
    db: coalescing(db, { [BINDING]: binding, [KEEP_ALIVE]: keepAlive, [NOTE_BOOKMARK]: noteBookmark }, checks, shared),
    bookmark: reached,
    noteBookmark,
    checkSession: checks.set,
    sessionChecked: checks.passed,
  };
}

/** The state of one request's session check: not asked for, waiting for a batch to take it, sent, decided. */
function sessionChecks(db: D1Database) {
  let pending: { statement: D1PreparedStatement; check: SessionCheck["check"] } | null = null;
  let outcome: Promise<void> | null = null;
  const decide = (check: NonNullable<typeof pending>, answer: Promise<D1Result>) => {
    outcome = answer.then((result) => check.check(result));
    outcome.catch(() => {});
    return outcome;
  };
  return {
    set({ query, params, check }: SessionCheck) {
      if (pending || outcome) throw new Error("the session check is set once, before the request's first statement");
      pending = { statement: db.prepare(query).bind(...params), check };
    },
    /** The statement for the next batch to carry, and the function to give it its answer; null when none waits. */
    take(): { statement: D1PreparedStatement; answer(result: Promise<D1Result>): void } | null {
      const check = pending;
      if (!check) return null;
      pending = null;
      let give!: (result: Promise<D1Result>) => void;
      void decide(check, new Promise<D1Result>((resolve) => (give = resolve)));
      return { statement: check.statement, answer: give };
    },
    /** Resolves once passed (sending the statement alone when no batch has taken it); resolved when there is none. */
    passed(): Promise<void> {
      if (pending) {
        const check = pending;
        pending = null;
        return decide(check, check.statement.all());
      }
      return outcome ?? Promise.resolve();
    },
  };
}

type SessionChecks = ReturnType<typeof sessionChecks>;
const noChecks: SessionChecks = { set: () => {}, take: () => null, passed: () => Promise.resolve() };

/**
 * `reads`, asked in the same turn as `access` (a policy's check) so both go to D1 in one batch, handed over only once
 * the check has passed: a refusal rejects with the check's error and the reads are dropped unseen.
 */
export async function onceAllowed<T>(access: Promise<unknown>, reads: Promise<T>): Promise<T> {
  reads.catch(() => {});
  await access;
  return reads;
}

const extrasOf = (db: D1Database) => db as D1Database & Partial<Extras>;
/** The binding behind a request database (itself for a plain binding). */
export const bindingOf = (db: D1Database): D1Database => extrasOf(db)[BINDING] ?? db;
/** The request's waitUntil (outside a request: the work simply runs). */
export const keepAliveOf = (db: D1Database) => extrasOf(db)[KEEP_ALIVE] ?? ((work: Promise<unknown>) => void work.catch(() => {}));
/** Where a bookmark reached on the request's behalf goes (nowhere outside a request). */
export const noteBookmarkOf = (db: D1Database) => extrasOf(db)[NOTE_BOOKMARK] ?? (() => {});
/** Resolves once the request's session check has passed (at once without one): writes outside `db` wait for it. */
export const sessionCheckedOf = (db: D1Database): Promise<void> => extrasOf(db)[CHECKED]?.() ?? Promise.resolve();

/** One caller's reads held for the turn's batch: a statement (`first`/`all`), or an explicit batch of SELECTs. */
interface Held {
  statements: D1PreparedStatement[];
  /** Hands the caller its answer from its statements' results. */
  settle(results: D1Result[]): void;
  reject: (error: unknown) => void;
}

const READ_ONLY = /^\s*(SELECT|WITH)\b/i;
const WRITES = /\b(INSERT|UPDATE|DELETE|REPLACE)\b/i;

/**
 * SELECTs issued in the same turn go to D1 together (see above); `extras` answer the symbols above. `shared`, when
 * given, sends a turn's batch of reads (with other requests', ./shared-reads.ts) instead of `db`.
 */
export function coalescing(db: D1Database, extras: Partial<Extras> = {}, checks: SessionChecks = noChecks, shared?: (statements: D1PreparedStatement[]) => Promise<D1Result[]>): D1Database {
  let held: Held[] = [];
  const originals = new WeakMap<object, D1PreparedStatement>();
  /** The proxies of read-only statements: a batch made only of them may be held. */
  const reads = new WeakSet<object>();

  const run =
    shared ?? ((statements: D1PreparedStatement[]): Promise<D1Result[]> => (statements.length === 1 ? statements[0]!.all().then((result) => [result]) : db.batch(statements)));
  /** A caller's answers, handed over once the session check (if any) has passed; a failed check rejects them. */
  const handOver = (item: Held, results: D1Result[]) => checks.passed().then(() => item.settle(results), item.reject);
  const alone = (item: Held) => run(item.statements).then((results) => handOver(item, results), item.reject);

  const flush = () => {
    const items = held;
    held = [];
    const rider = checks.take();
    if (!rider && items.length === 1) return void alone(items[0]!);
    const skip = rider ? 1 : 0;
    void run([...(rider ? [rider.statement] : []), ...items.flatMap((item) => item.statements)]).then(
      (results) => {
        rider?.answer(Promise.resolve(results[0]!));
        let offset = skip;
        for (const item of items) {
          void handOver(item, results.slice(offset, offset + item.statements.length));
          offset += item.statements.length;
        }
      },
      () => {
        rider?.answer(run([rider.statement]).then(([result]) => result!));
        items.forEach((item) => void alone(item));
      },
    );
  };

  const hold = <T>(statements: D1PreparedStatement[], answer: (results: D1Result[]) => T) =>
    new Promise<T>((resolve, reject) => {
      if (held.length === 0) setTimeout(flush, 0);
      held.push({ statements, settle: (results) => resolve(answer(results)), reject });
    });

  /** What is not held (writes, `run`, `raw`, `exec`…) goes to D1 once the session check has passed. */
  const checkedFirst =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      checks.passed().then(() => call(...args));

  const firstOf = (column: string | undefined) => ([result]: D1Result[]) => {
    const row = (result!.results[0] ?? null) as Record<string, unknown> | null;
    return column === undefined ? row : row === null ? null : (row[column] ?? null);
  };

  const wrap = (statement: D1PreparedStatement, readOnly: boolean): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), readOnly);
        if (readOnly && property === "first") return (column?: string) => hold([target], firstOf(column));
        if (readOnly && property === "all") return () => hold([target], ([result]) => result);
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== "function") return value;
        const bound = value.bind(target) as (...args: unknown[]) => unknown;
        return STATEMENT_CALLS.has(property) ? checkedFirst(async (...args: unknown[]) => bound(...args)) : bound;
      },
    });
    originals.set(proxy, statement);
    if (readOnly) reads.add(proxy);
    return proxy;
  };

  return new Proxy(db, {
    get(target, property) {
      if (property === CHECKED) return checks.passed;
      if (property in extras) return extras[property as keyof Extras];
      if (property === "prepare") return (query: string) => wrap(target.prepare(query), READ_ONLY.test(query) && !WRITES.test(query));
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          const unwrapped = statements.map((s) => originals.get(s) ?? s);
          return statements.length > 0 && statements.every((s) => reads.has(s))
            ? hold(unwrapped, (results) => results)
            : checks.passed().then(() => target.batch(unwrapped));
        };
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      const bound = value.bind(target) as (...args: unknown[]) => unknown;
      return DATABASE_CALLS.has(property) ? checkedFirst(async (...args: unknown[]) => bound(...args)) : bound;
    },
  });
}

/** A statement's calls that reach D1 (a read-only statement's `first` and `all` are held instead). */
const STATEMENT_CALLS = new Set<string | symbol>(["first", "all", "run", "raw"]);
/** A database's calls that reach D1 besides `batch`. */
const DATABASE_CALLS = new Set<string | symbol>(["exec", "dump"]);
