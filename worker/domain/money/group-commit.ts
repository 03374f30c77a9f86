import { bindingOf, keepAliveOf, noteBookmarkOf, sessionCheckedOf } from "../../db/request-database";
import { createLine, waitingFor, type Line } from "../../db/line";

/**
 * Group commit for wallet payments (issue 16). Each payment is one D1 batch (its transfer, payment, earning and
 * effects: a transaction, worker/domain/money/ledger.ts). When payments arrive while another group is on its way
 * to D1, they wait for it and then go together, as ONE batch: one round trip for the whole group instead of one
 * each. The database still checks every payment on its own, in order, inside that transaction (the wallet's
 * balance trigger, the payment's unique key, the guards), so nothing about the books changes.
 *
 * A group is all or nothing, so when D1 refuses it (a wallet one of them would overdraw, a replayed key…), it is
 * split in two and each half tried again, down to single payments: the payments that are fine still commit,
 * together, and only the refused one gets its own error, exactly the error it would have got alone. One refusal in
 * a group of 16 costs about 2·log2(16) = 8 batches more; a group of good payments costs one.
 *
 * A group is per isolate and per database binding; how the groups are sent, and by which request, is
 * worker/db/line.ts.
 */
type Statements = D1PreparedStatement[];

interface Waiting {
  statements: Statements;
  resolve: (results: D1Result[]) => void;
  reject: (error: unknown) => void;
  /** The request's note of the bookmark its write reached (read replication: its next reads see it). */
  noteBookmark: (bookmark: string | null) => void;
}

const lines = new WeakMap<D1Database, Line<Waiting>>();
/** The most payments in one batch (D1 allows many statements; a payment is about ten). */
export const GROUP_LIMIT = 32;

/** Runs `statements` as one transaction, with whatever other payments are waiting; answers their results. */
export async function commitGrouped(db: D1Database, statements: Statements): Promise<D1Result[]> {
  // It writes through the binding, not the request's database: the request's session check passes first.
  await sessionCheckedOf(db);
  const binding = bindingOf(db);
  let line = lines.get(binding);
  if (!line) lines.set(binding, (line = createLine<Waiting>({ send: (group) => commit(binding, group), weight: () => 1, limit: GROUP_LIMIT })));
  const queued = line;
  const done = new Promise<D1Result[]>((resolve, reject) => queued({ statements, resolve, reject, noteBookmark: noteBookmarkOf(db) }, keepAliveOf(db)));
  return waitingFor(done);
}

/** One batch through a primary session of its own, whose bookmark each payment of the group takes home. */
async function send(binding: D1Database, statements: Statements): Promise<{ results: D1Result[]; bookmark: string | null }> {
  const session = typeof binding.withSession === "function" ? binding.withSession("first-primary") : null;
  const results = await (session ?? binding).batch(statements);
  return { results, bookmark: session?.getBookmark() ?? null };
}

async function commit(binding: D1Database, group: Waiting[]): Promise<void> {
  if (group.length === 1) {
    const [only] = group;
    try {
      const { results, bookmark } = await send(binding, only!.statements);
      only!.noteBookmark(bookmark);
      only!.resolve(results);
    } catch (error) {
      only!.reject(error);
    }
    return;
  }
  let results: D1Result[];
  let bookmark: string | null;
  try {
    ({ results, bookmark } = await send(binding, group.flatMap((item) => item.statements)));
  } catch {
    const half = Math.ceil(group.length / 2);
    await commit(binding, group.slice(0, half));
    await commit(binding, group.slice(half));
    return;
  }
  let offset = 0;
  for (const item of group) {
    item.noteBookmark(bookmark);
    item.resolve(results.slice(offset, offset + item.statements.length));
    offset += item.statements.length;
  }
}
