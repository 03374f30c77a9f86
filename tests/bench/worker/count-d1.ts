import type { Env } from "../../../worker/env";
import { timelineStatement } from "../../../worker/domain/timeline/get-timeline";
import { storiesBarStatement } from "../../../worker/domain/stories/stories";
import { auditBooksForBench } from "./ledger-audit";
import { tipsInWorker } from "./tips-in-worker";
import { commitsInWorker } from "./commits-in-worker";
import { storeBenchMediaFiles } from "./media-files";

/**
 * The benchmark's Worker (tests/bench/worker/index.ts) only: counts every D1 statement the Worker runs, so the
 * benchmark can report queries per request honestly, and answers the timeline query's plan.
 *   GET /__bench/d1-statements           → {statements, roundTrips, queue}: totals since the isolate started (a
 *                                          batch is one round trip of several statements); `queue` counts the
 *                                          Queue consumer's work apart (countD1InQueue)
 *   GET /__bench/d1-trip                 → one `SELECT 1` and nothing else: what a round trip alone costs
 *   GET /__bench/timeline-plan?viewer=ID → {plan}: EXPLAIN QUERY PLAN of the first timeline page
 *   GET /__bench/stories-plan?viewer=ID  → {plan}: EXPLAIN QUERY PLAN of the stories bar
 *   GET /__bench/ledger-audit            → the books after the money benchmark (ledger-audit.ts)
 *   POST /__bench/tips-in-worker         → tips per second without HTTP (tips-in-worker.ts)
 *   POST /__bench/commits-in-worker      → D1 batches alone: a tip's ledger batch, a one-row write, a read
 *                                          (commits-in-worker.ts; not counted)
 *   POST /__bench/media-files?limit=N    → files for the big seed's newest image rows (media-files.ts)
 */
type Fetch = (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

interface Counter {
  statements: number;
  roundTrips: number;
}
const requests: Counter = { statements: 0, roundTrips: 0 };
const queue: Counter = { statements: 0, roundTrips: 0 };
const STATEMENT_RUNS = new Set<PropertyKey>(["first", "all", "run", "raw"]);
const originals = new WeakMap<object, D1PreparedStatement>();
const countingEnvs = new WeakMap<Env, Env>();

function countingStatement(statement: D1PreparedStatement, counter: Counter): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, property) {
      if (property === "bind") return (...values: unknown[]) => countingStatement(target.bind(...values), counter);
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      if (!STATEMENT_RUNS.has(property)) return value.bind(target);
      return (...args: unknown[]) => {
        counter.statements++;
        counter.roundTrips++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  originals.set(proxy, statement);
  return proxy;
}

function countingDatabase(db: D1Database, counter: Counter): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (query: string) => countingStatement(target.prepare(query), counter);
      if (property === "withSession")
        return (...args: unknown[]) =>
          countingDatabase((target.withSession as unknown as (...a: unknown[]) => D1Database)(...args), counter);
      if (property === "batch")
        return (batch: D1PreparedStatement[]) => {
          counter.statements += batch.length;
          counter.roundTrips++;
          return target.batch(batch.map((s) => originals.get(s) ?? s));
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function countD1(fetch: Fetch): Fetch {
  return async (request, env, ctx) => {
    const url = new URL(request.url);
    // One D1 round trip and nothing else (no router, middleware, session or real query): the ceiling of any
    // request that reads D1 once, against the reference.
    if (url.pathname === "/__bench/d1-trip") return Response.json(await env.DB.prepare("SELECT 1 AS one").first());
    if (url.pathname === "/__bench/d1-statements") return Response.json({ ...requests, queue });
    if (url.pathname === "/__bench/ledger-audit") return Response.json(await auditBooksForBench(env.DB));
    if (url.pathname === "/__bench/timeline-plan") {
      const viewer = await env.DB.prepare("SELECT id, following_count FROM users WHERE id = ?")
        .bind(Number(url.searchParams.get("viewer")))
        .first<{ id: number; following_count: number }>();
      const { results } = await timelineStatement(env.DB, viewer ?? { id: 0, following_count: 0 }, null, true).all<{
        id: number;
        parent: number;
        detail: string;
      }>();
      return Response.json({ plan: results });
    }
    if (url.pathname === "/__bench/stories-plan") {
      const { results } = await storiesBarStatement(env.DB, Number(url.searchParams.get("viewer")), true).all<{
        id: number;
        parent: number;
        detail: string;
      }>();
      return Response.json({ plan: results });
    }
    if (url.pathname === "/__bench/media-files" && request.method === "POST") return storeBenchMediaFiles(env, request);
    if (url.pathname === "/__bench/commits-in-worker" && request.method === "POST")
      return commitsInWorker(env, request);
    let counting = countingEnvs.get(env);
    if (!counting) countingEnvs.set(env, (counting = { ...env, DB: countingDatabase(env.DB, requests) }));
    if (url.pathname === "/__bench/tips-in-worker" && request.method === "POST") return tipsInWorker(counting, request);
    return fetch(request, counting, ctx);
  };
}

type QueueHandler = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

/** The same count for the Queue consumer (mass messages), kept apart from the requests' count. */
export function countD1InQueue(handler: QueueHandler): QueueHandler {
  return (batch, env, ctx) => handler(batch, { ...env, DB: countingDatabase(env.DB, queue) }, ctx);
}
