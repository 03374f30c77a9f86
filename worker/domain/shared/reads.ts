/**
 * A read as its statement and what its result means, so that a caller can send several reads that belong together
 * in one `db.batch` (one round trip to D1) and hand each its own result. `answer` may throw (a policy's refusal).
 * docs/decisions/plain-data-access.md
 */
export interface Read<T> {
  statement: D1PreparedStatement;
  answer(result: D1Result): T;
}

type Answers<R extends readonly Read<unknown>[]> = { -readonly [K in keyof R]: R[K] extends Read<infer T> ? T : never };

/** The first row of `statement`, or null. */
export const firstRow = <T>(statement: D1PreparedStatement): Read<T | null> => ({
  statement,
  answer: (result) => (result.results[0] as T | undefined) ?? null,
});

/** Every row of `statement`. */
export const allRows = <T>(statement: D1PreparedStatement): Read<T[]> => ({
  statement,
  answer: (result) => result.results as T[],
});

/** What `read` answers, from a round trip of its own. */
export async function readOne<T>(read: Read<T>): Promise<T> {
  return read.answer(await read.statement.all());
}

/** The answers of `reads`, sent as one batch; they are answered in order, so the first refusal is the one thrown. */
export async function readTogether<const R extends readonly Read<unknown>[]>(
  db: D1Database,
  reads: R,
): Promise<Answers<R>> {
  const results = await db.batch(reads.map((read) => read.statement));
  return reads.map((read, index) => read.answer(results[index]!)) as Answers<R>;
}
