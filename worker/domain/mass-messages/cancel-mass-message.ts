import type { MassMessageView } from "@shared/contracts/messages";
import type { UserRow } from "../accounts/users";
import { requireCreator } from "../policies/mass-messages";
import { AppError } from "../shared/errors";
import { ALREADY_GONE, findOwnMassMessage, presentMassMessage, type MassMessageRow } from "./mass-message-rows";

/** Cancels a scheduled mass message before it goes; it stays in the list as cancelled. */
export async function cancelMassMessage(db: D1Database, creator: UserRow, id: number): Promise<MassMessageView> {
  requireCreator(creator);
  const row = await db
    .prepare(
      "UPDATE mass_messages SET status = 'cancelled' WHERE id = ? AND sender_id = ? AND status = 'scheduled' RETURNING *",
    )
    .bind(id, creator.id)
    .first<MassMessageRow>();
  if (row) return presentMassMessage(row);
  const current = await findOwnMassMessage(db, creator.id, id);
  if (current.status === "cancelled") return current;
  throw new AppError("conflict", ALREADY_GONE);
}
