import type { UserRow } from "../accounts/users";
import { getDeletionState, type AccountDeletionView } from "./deletion-state";

/**
 * The person signed in during the grace days and keeps their account: it is visible again as it was (nothing was
 * deleted yet). A subscription whose renewal date passed meanwhile has ended and stays ended. Nothing to undo
 * answers the state as it is.
 */
export async function cancelDeletion(db: D1Database, user: Pick<UserRow, "id">): Promise<AccountDeletionView> {
  await db
    .prepare(
      "UPDATE users SET suspended_at = NULL, deletion_due_at = NULL WHERE id = ? AND deletion_due_at IS NOT NULL",
    )
    .bind(user.id)
    .run();
  return getDeletionState(db, user.id);
}
