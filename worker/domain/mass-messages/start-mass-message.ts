import type { MassMessageView } from "@shared/contracts/messages";
import type { SendMassMessageInput } from "@shared/contracts/message-bodies";
import { message } from "@shared/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { assertSendable, checkMessageInput } from "../messages/send-message";
import { IDEMPOTENCY_KEY_REUSED } from "../money/rules";
import { requireCreator } from "../policies/mass-messages";
import { AppError, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { beginStatements, type EnqueueMassMessage } from "./begin-mass-message";
import { countAudienceStatement } from "./count-mass-audience";
import { findOwnMassMessage, presentMassMessage, type MassMessageRow } from "./mass-message-rows";

const NO_RECIPIENTS = message("Nobody to send it to yet: these lists are empty.");

const sameLists = (stored: string, sent: readonly string[]) => stored === JSON.stringify(sent);

/**
 * A creator's message to the fans of some lists (any of `include`, none of `exclude`), now or at `sendAt`. A
 * scheduled one is only stored: the cron makes it go (startDueMassMessages). One sent now is stored with its
 * recipients, and the Queue's consumer (deliverMassMessageBatch) writes the copies in batches, so no request
 * writes thousands of rows. The client id makes it idempotent.
 */
export async function startMassMessage(
  ctx: Pick<DomainContext, "db">,
  enqueue: EnqueueMassMessage,
  creator: UserRow,
  input: SendMassMessageInput,
): Promise<MassMessageView> {
  const { db } = ctx;
  requireCreator(creator);
  const earlier = await db
    .prepare("SELECT * FROM mass_messages WHERE sender_id = ? AND client_id = ?")
    .bind(creator.id, input.clientId)
    .first<MassMessageRow>();
  if (earlier) {
    if (
      earlier.text !== input.text.trim() ||
      !sameLists(earlier.include_lists, input.include) ||
      !sameLists(earlier.exclude_lists, input.exclude)
    )
      throw new AppError("conflict", IDEMPOTENCY_KEY_REUSED);
    return findOwnMassMessage(db, creator.id, earlier.id);
  }
  const { text } = checkMessageInput(input, creator);
  await assertSendable(db, creator.id, input.mediaIds);
  const now = isoNow();
  if (!input.sendAt) {
    const count = await countAudienceStatement(db, creator.id, input).first<{ n: number }>();
    if (!count || count.n === 0) throw fieldError("include", NO_RECIPIENTS);
  }
  const byClientId = "(SELECT id FROM mass_messages WHERE sender_id = ?1 AND client_id = ?3)";
  const [inserted, , begun] = await db.batch<MassMessageRow>([
    db
      .prepare(
        `INSERT INTO mass_messages (sender_id, client_id, include_lists, exclude_lists, text, price_cents, media_ids, status, send_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'scheduled', ?8, ?9) ON CONFLICT (sender_id, client_id) DO NOTHING RETURNING *`,
      )
      .bind(
        creator.id,
        input.clientId,
        JSON.stringify(input.include),
        JSON.stringify(input.exclude),
        text,
        input.priceCents,
        JSON.stringify(input.mediaIds),
        input.sendAt ?? now,
        now,
      ),
    // Sent now, it goes in the same batch; scheduled, the cron makes it go.
    ...(input.sendAt ? [] : beginStatements(db, creator.id, input, byClientId, [input.clientId], now)),
  ]);
  const row = begun?.results[0] ?? inserted!.results[0];
  // A resend racing the first: the first one is the answer, and only it enqueues.
  if (!row) {
    const first = await db
      .prepare("SELECT id FROM mass_messages WHERE sender_id = ? AND client_id = ?")
      .bind(creator.id, input.clientId)
      .first<{ id: number }>();
    return findOwnMassMessage(db, creator.id, first!.id);
  }
  if (begun?.results[0]) await enqueue({ massMessageId: row.id });
  return presentMassMessage(row);
}
