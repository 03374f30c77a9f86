import type { UserRow } from "../../../worker/domain/accounts/users";

/** What the in-Worker benchmarks share (tips-in-worker.ts, commits-in-worker.ts). */

/** Runs `step` `concurrency` at a time, each again as soon as it is done, until `durationMs` have passed; answers the seconds taken. */
export async function runFor(
  { concurrency, durationMs }: { concurrency: number; durationMs: number },
  step: () => Promise<void>,
): Promise<number> {
  const started = Date.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) await step();
    }),
  );
  return (Date.now() - started) / 1000;
}

/** The users with these usernames, as stored. */
export async function usersNamed(db: D1Database, usernames: string[]): Promise<UserRow[]> {
  const { results } = await db
    .prepare(`SELECT * FROM users WHERE username IN (${usernames.map(() => "?").join(", ")})`)
    .bind(...usernames)
    .all<UserRow>();
  return results;
}

/** One of `items`, at random. */
export const pickOne = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
