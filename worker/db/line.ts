/**
 * A line of work that the requests of one isolate share (issue 16): while one group is on its way to D1, the items
 * that come meanwhile wait, and then go together as the next group, one round trip for all of them. Used for reads
 * (./shared-reads.ts) and for wallet payments (../domain/money/group-commit.ts).
 *
 * Each group is sent from the context of a request that waits for it, never from another's: workerd runs a
 * promise's continuation in the request that created it and drops it once that request has ended, so a loop
 * running on behalf of many requests in one request's context would stop with that request and leave the line
 * waiting forever. Here, when a group comes back, every request still waiting is woken in its own context and the
 * first to run sends the next group (the items at the head of the line, its own among them unless the line is
 * longer than a group); one whose request has ended is simply not among those that wake. A request sends at most
 * the groups in front of and including its own, each under its waitUntil, so a client that goes away cannot cut a
 * group short.
 *
 * A group that has not come back after STALL_MS no longer holds the line: the next group goes without it (its own
 * requests still wait for it). Without this, one stuck round trip would stop every request of the isolate.
 */

/** How long a group may be on its way before the next one goes anyway. */
export const STALL_MS = 2000;

export interface LineOptions<T> {
  /** Sends a group and settles each of its items (a rejection is taken as settled: `send` answers its items). */
  send(group: T[]): Promise<void>;
  /** An item's share of a group's LIMIT (its statements). */
  weight(item: T): number;
  /** The most weight in one group (a group holds at least one item). */
  limit: number;
}

export type Line<T> = (item: T, keepAlive: (work: Promise<unknown>) => void) => void;

export function createLine<T>({ send, weight, limit }: LineOptions<T>): Line<T> {
  const waiting: T[] = [];
  /** The group on its way, if any, and since when. */
  let inFlight: { since: number } | null = null;
  let wakers: Array<() => void> = [];

  const takeGroup = () => {
    let total = 0;
    let size = 0;
    while (size < waiting.length && (size === 0 || total + weight(waiting[size]!) <= limit)) total += weight(waiting[size++]!);
    return waiting.splice(0, size);
  };

  const lead = (keepAlive: (work: Promise<unknown>) => void) => {
    const flight = { since: Date.now() };
    inFlight = flight;
    keepAlive(
      send(takeGroup())
        .catch(() => {})
        .finally(() => {
          // A group that stalled and was overtaken frees nothing when it comes back at last.
          if (inFlight === flight) inFlight = null;
          const woken = wakers;
          wakers = [];
          for (const wake of woken) wake();
        }),
    );
  };

  /** Resolves when a group comes back, or after STALL_MS. */
  const woken = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, STALL_MS);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      wakers.push(done);
    });

  /** In the caller's own context: sends groups while `item` waits, until it has been sent. */
  const queue = async (item: T, keepAlive: (work: Promise<unknown>) => void) => {
    waiting.push(item);
    while (waiting.includes(item)) {
      if (inFlight === null || Date.now() - inFlight.since >= STALL_MS) lead(keepAlive);
      else await woken();
    }
  };

  return (item, keepAlive) => void queue(item, keepAlive);
}

/**
 * A request that waits on a group another request sends has no I/O of its own meanwhile, and workerd would take it
 * for hung (and cancel it): a timer of its own keeps it visibly waiting until its answer comes.
 */
export async function waitingFor<T>(answer: Promise<T>): Promise<T> {
  const heartbeat = setInterval(() => {}, 20);
  try {
    return await answer;
  } finally {
    clearInterval(heartbeat);
  }
}
