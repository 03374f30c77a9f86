import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readShared } from "../../worker/db/shared-reads";
import { requestDatabase } from "../../worker/db/request-database";
import { counted } from "./counted-db";

/**
 * Issue 16: reads of concurrent requests share round trips (worker/db/shared-reads.ts). Each check is paired with
 * what sharing must not change: each request's own answers, one bad statement failing only its request, where a
 * read may be served (read replication).
 */

const keep = (work: Promise<unknown>) => void work.catch(() => {});
const primary = { primary: true, bookmark: null };
const anywhere = { primary: false, bookmark: null };

/**
 * A binding whose sessions are recorded (the tests' D1 has no Sessions API; wrangler dev's has). A session's bookmark
 * is `bookmarkOf` once it has run something (a batch, or a statement's `run`), null before.
 */
function withSessions(binding: D1Database, bookmarkOf: (constraint: string) => string, before: () => Promise<void> = async () => {}) {
  const opened: string[] = [];
  const database = new Proxy(binding, {
    get(target, property) {
      if (property === "withSession")
        return (constraint: string) => {
          opened.push(constraint);
          let used = false;
          const prepare = (query: string) =>
            new Proxy(target.prepare(query), {
              get(statement, name) {
                if (name === "run")
                  return () => {
                    used = true;
                    return statement.run();
                  };
                const value = Reflect.get(statement, name, statement) as unknown;
                return typeof value === "function" ? value.bind(statement) : value;
              },
            });
          const batch = (statements: D1PreparedStatement[]) => {
            used = true;
            return before().then(() => target.batch(statements));
          };
          return { prepare, batch, getBookmark: () => (used ? bookmarkOf(constraint) : null) };
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { database, opened };
}

describe("reads shared across requests", () => {
  it("a batch alone goes at once; the batches sent while it is on its way go together, each with its own answers", async () => {
    const { database, calls } = counted(env.DB);
    const first = readShared(database, [database.prepare("SELECT 1 AS n")], anywhere, keep);
    const second = readShared(database, [database.prepare("SELECT 2 AS n"), database.prepare("SELECT 3 AS n")], anywhere, keep);
    const third = readShared(database, [database.prepare("SELECT ?1 AS n").bind(4)], anywhere, keep);
    const answers = await Promise.all([first, second, third]);
    expect(answers.map(({ results }) => results.map((result) => result.results))).toEqual([[[{ n: 1 }]], [[{ n: 2 }], [{ n: 3 }]], [[{ n: 4 }]]]);
    // The first went alone (nothing was on its way); the other two, one round trip for both.
    expect(calls).toMatchObject({ single: 0, batches: 2, batchSizes: [1, 3] });
  });

  it("a bad statement fails only its own request's batch, sent again alone; the others still get theirs", async () => {
    const { database, calls } = counted(env.DB);
    const lead = readShared(database, [database.prepare("SELECT 0 AS n")], anywhere, keep);
    const [good, bad, other] = await Promise.allSettled([
      readShared(database, [database.prepare("SELECT 7 AS n")], anywhere, keep),
      readShared(database, [database.prepare("SELECT 8 AS n"), database.prepare("SELECT * FROM no_such_table")], anywhere, keep),
      readShared(database, [database.prepare("SELECT 9 AS n")], anywhere, keep),
    ]);
    await lead;
    expect(good).toMatchObject({ status: "fulfilled", value: { results: [{ results: [{ n: 7 }] }] } });
    expect(bad.status).toBe("rejected");
    expect(other).toMatchObject({ status: "fulfilled", value: { results: [{ results: [{ n: 9 }] }] } });
    // The lead alone, the refused group of three, then each request's batch on its own.
    expect(calls.batchSizes).toEqual([1, 4, 1, 2, 1]);
  });

  it("the reads of writes go to the primary in a line of their own; the others start at the latest bookmark among them", async () => {
    const { database, opened } = withSessions(env.DB, () => "0000000a-00000009");
    const [write, ...reads] = await Promise.all([
      readShared(database, [database.prepare("SELECT 1 AS n")], primary, keep),
      readShared(database, [database.prepare("SELECT 2 AS n")], anywhere, keep),
      readShared(database, [database.prepare("SELECT 3 AS n")], { primary: false, bookmark: "0000000a-00000003" }, keep),
      readShared(database, [database.prepare("SELECT 4 AS n")], { primary: false, bookmark: "0000000a-00000007" }, keep),
      readShared(database, [database.prepare("SELECT 5 AS n")], anywhere, keep),
    ]);
    expect(write.results[0]!.results).toEqual([{ n: 1 }]);
    expect(reads.map(({ results }) => results[0]!.results[0])).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
    expect(reads.every(({ bookmark }) => bookmark === "0000000a-00000009")).toBe(true);
    // The write's reads, and the first read, each went at once in their own line; the three reads that waited
    // went together, no earlier than the latest bookmark among them.
    expect(opened).toEqual(["first-primary", "first-unconstrained", "0000000a-00000007"]);
  });

  it("through requestDatabase: concurrent requests' reads share round trips, and a request's next reads never go back in time", async () => {
    let position = 3;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The first batch is held on its way until the others have been sent.
    const { database: binding, opened } = withSessions(env.DB, () => `0000000a-0000000${position}`, () => gate);
    const { database, calls } = counted(binding);
    const requests = Array.from({ length: 4 }, () => requestDatabase(database, new Request("https://app.test/api/updates"), keep));
    const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
    const first = requests[0]!.db.prepare("SELECT ?1 AS n").bind(0).first<{ n: number }>();
    await turn(); // the first request's turn has ended: its batch is on its way
    const others = requests.slice(1).map((request, index) => request.db.prepare("SELECT ?1 AS n").bind(index + 1).first<{ n: number }>());
    await turn(); // theirs too: they wait for the first
    release();
    expect(await Promise.all([first, ...others])).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    // The first request's read alone, the three that came while it was on its way in one round trip.
    expect(calls.batchSizes).toEqual([1, 3]);
    // Each request's own session, then the two shared batches' sessions.
    expect(opened.slice(4)).toEqual(["first-unconstrained", "first-unconstrained"]);
    position = 5;
    await requests[0]!.db.prepare("SELECT 1 AS n").first();
    // Its first read was served at bookmark …3: its next starts there.
    expect(opened.at(-1)).toBe("0000000a-00000003");
    // A request that wrote (through its own session, at the primary) reads no earlier than its write.
    position = 8;
    await requests[1]!.db.prepare("UPDATE users SET name = name WHERE id = -1").run();
    await requests[1]!.db.prepare("SELECT 1 AS n").first();
    expect(opened.at(-1)).toBe("0000000a-00000008");
  });
});

describe("the line's groups (worker/db/line.ts)", () => {
  it("each group is sent by a request waiting for it: the first alone, the next by the first of those who waited", async () => {
    const { database } = counted(env.DB);
    const kept: string[] = [];
    const keeper = (name: string) => (work: Promise<unknown>) => {
      kept.push(name);
      work.catch(() => {});
    };
    const a = readShared(database, [database.prepare("SELECT 1 AS n")], anywhere, keeper("a"));
    const b = readShared(database, [database.prepare("SELECT 2 AS n")], anywhere, keeper("b"));
    const c = readShared(database, [database.prepare("SELECT 3 AS n")], anywhere, keeper("c"));
    await Promise.all([a, b, c]);
    // a's request sent its own group only; b, woken in its own request, sent b's and c's.
    expect(kept).toEqual(["a", "b"]);
  });

  it("a group that has not come back after STALL_MS no longer holds the line", async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const { database } = withSessions(env.DB, () => "0000000a-00000001", () => {
      const wait = first ? stuck : Promise.resolve();
      first = false;
      return wait;
    });
    let stuckAnswered = false;
    const held = readShared(database, [database.prepare("SELECT 1 AS n")], anywhere, keep).then((answer) => ((stuckAnswered = true), answer));
    const next = await readShared(database, [database.prepare("SELECT 2 AS n")], anywhere, keep);
    expect(next.results[0]!.results).toEqual([{ n: 2 }]);
    expect(stuckAnswered).toBe(false);
    release();
    expect((await held).results[0]!.results).toEqual([{ n: 1 }]);
  });
});
