import type { MassMessageView } from "@shared/contracts/messages";
import type { EditMassMessageInput } from "@shared/contracts/message-bodies";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { assertSendable, checkMessageInput } from "../messages/send-message";
import { requireCreator } from "../policies/mass-messages";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { beginStatements, type EnqueueMassMessage } from "./begin-mass-message";
import { ALREADY_GONE, findOwnMassMessage, presentMassMessage, type MassMessageRow } from "./mass-message-rows";

/**
 * Changes a scheduled mass message (text, price, media, lists, time) while it has not gone; without `sendAt` it
 * goes now, in the same batch. Someone else's is "not found"; one that has gone (or was cancelled) is a conflict.
 */
export async function editMassMessage(
  ctx: Pick<DomainContext, "db">,
  enqueue: EnqueueMassMessage,
  creator: UserRow,
  id: number,
  input: EditMassMessageInput,
): Promise<MassMessageView> {
  const { db } = ctx;
  requireCreator(creator);
  const current = await findOwnMassMessage(db, creator.id, id);
  if (current.status !== "scheduled") throw new AppError("conflict", ALREADY_GONE);
  const { text } = checkMessageInput({ ...input, clientId: "" }, creator);
  await assertSendable(db, creator.id, input.mediaIds);
  const now = isoNow();
  const [updated, , begun] = await db.batch<MassMessageRow>([
    db
      .prepare(
        `UPDATE mass_messages SET include_lists = ?3, exclude_lists = ?4, text = ?5, price_cents = ?6, media_ids = ?7, send_at = ?8
         WHERE id = ?1 AND sender_id = ?2 AND status = 'scheduled' RETURNING *`,
      )
      .bind(
        id,
        creator.id,
        JSON.stringify(input.include),
        JSON.stringify(input.exclude),
        text,
        input.priceCents,
        JSON.stringify(input.mediaIds),
        input.sendAt ?? now,
      ),
    ...(input.sendAt ? [] : beginStatements(db, creator.id, input, "?3", [id], now)),
  ]);
  const row = begun?.results[0] ?? updated!.results[0];
  // The cron made it go between the read and the batch.
  if (!row) throw new AppError("conflict", ALREADY_GONE);
  if (begun?.results[0]) await enqueue({ massMessageId: row.id });
  return presentMassMessage(row);
}
