import type { EffectsContext } from "../context";
import { DAY, isoIn, isoNow } from "../shared/time";
import { deleteAccount } from "./delete-account";

/** Accounts deleted per cron run: each is many statements and R2 deletions; the next runs take the rest. */
const BATCH = 5;

/**
 * The cron's deletions: accounts whose grace days are over, oldest first. One whose money has not settled yet
 * (deleteAccount says why it waits) is put off by a day, so that it never holds back the others; its owner sees
 * the new date.
 */
export async function deleteDueAccounts(ctx: EffectsContext): Promise<{ deleted: number; waiting: number }> {
  const { results } = await ctx.db
    .prepare(
      "SELECT id FROM users WHERE deletion_due_at IS NOT NULL AND deletion_due_at <= ? ORDER BY deletion_due_at LIMIT ?",
    )
    .bind(isoNow(), BATCH)
    .all<{ id: number }>();
  let deleted = 0;
  let waiting = 0;
  for (const { id } of results) {
    if ((await deleteAccount(ctx, id)) === "deleted") deleted += 1;
    else {
      waiting += 1;
      await ctx.db
        .prepare("UPDATE users SET deletion_due_at = ? WHERE id = ? AND deletion_due_at IS NOT NULL")
        .bind(isoIn(DAY), id)
        .run();
    }
  }
  return { deleted, waiting };
}
