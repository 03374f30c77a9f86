import type { LiveEntry } from "@shared/contracts/live";
import type { PaymentView } from "@shared/contracts/money";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { findPaymentByKey, paymentByKeyRead, payFromWallet, presentPayment, replayedFrom } from "../money/payments";
import { clientKey, MAX_TIP_CENTS, MIN_TIP_CENTS, systemKey, TIP_AMOUNT_RANGE } from "../money/rules";
import { tipRangeVars } from "../money/send-tip";
import type { TipInput } from "@shared/contracts/money-bodies";
import { notificationStatements } from "../notifications/notifications";
import { LIVE_ENDED, liveAccessCheck, requireLiveAccess } from "../policies/live";
import { AppError, fieldError, PriceChangedError } from "../shared/errors";
import { message } from "@shared/messages";

const CANNOT_JOIN_OWN = message("This is your own stream.");

/** The key of a person's entry to a stream: one per stream and person, so however often they join, they pay once. */
const entryKey = (streamId: number) => systemKey(`live-entry-${streamId}`);

/**
 * The entry step of /live/{id}/join: checks the audience, and takes a paid stream's entry price from the wallet
 * once (its key is the stream's, so a second join, a retry or a second tab finds the first payment and moves
 * nothing). A free stream answers `payment: null`. An entry not yet paid is charged only at the price the fan was
 * shown (`seenPriceCents`), else refused with the current one (PriceChangedError).
 */
export async function joinLiveStream(
  ctx: Pick<DomainContext, "db" | "config">,
  fan: UserRow,
  streamId: number,
  seenPriceCents: number,
): Promise<LiveEntry> {
  const { stream, facts } = await requireLiveAccess(ctx.db, fan, streamId, "see");
  if (facts.isCreator) throw new AppError("conflict", CANNOT_JOIN_OWN);
  if (stream.status !== "live") throw new AppError("conflict", LIVE_ENDED);
  if (stream.price_cents === 0) return { payment: null, replayed: false };
  if (facts.entered) {
    // Paid already: that payment answers, whatever the fan was shown this time.
    const paid = await findPaymentByKey(ctx.db, fan.id, entryKey(streamId));
    if (paid) return { payment: presentPayment(paid), replayed: true };
  } else if (stream.price_cents !== seenPriceCents) throw new PriceChangedError(stream.price_cents);
  const outcome = await payFromWallet(ctx.db, {
    payer: fan,
    creatorId: stream.creator_id,
    kind: "live",
    amountCents: stream.price_cents,
    idempotencyKey: entryKey(streamId),
    request: { liveStreamId: streamId },
    liveStreamId: streamId,
    feePercent: ctx.config.PLATFORM_FEE_PERCENT,
  });
  // No notification per entry (a busy stream would flood the creator's bell): the viewer count and the earnings
  // under "Live streams" say it.
  return { payment: presentPayment(outcome.payment), replayed: outcome.replayed };
}

/**
 * A tip during a stream: for who may watch it (audience, entry paid, still live), through the ledger with the
 * fan's idempotency key; the stream's total rises in the same batch, and the LiveRoom shows the tip to everyone
 * once it has committed (LiveTipped). A replay answers the first payment before any check, like every tip.
 */
export async function sendLiveTip(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  fan: UserRow,
  streamId: number,
  input: TipInput,
): Promise<{ payment: PaymentView; replayed: boolean }> {
  const note = input.note ? input.note : null;
  const request = { liveStreamId: streamId, note };
  // The replay lookup and the access check, in one batch. A replay answers even when the check would now refuse (the
  // stream ended).
  const replay = paymentByKeyRead(ctx.db, fan.id, clientKey(input.idempotencyKey));
  const check = liveAccessCheck(ctx.db, fan, streamId, "watch");
  const [found, checked] = await ctx.db.batch([replay.statement, check.statement]);
  const earlier = await replayedFrom(replay.answer(found!), {
    kind: "live_tip",
    amountCents: input.amountCents,
    request,
  });
  if (earlier) return { payment: presentPayment(earlier), replayed: true };
  const { stream, facts } = check.answer(checked!);
  if (facts.isCreator) throw new AppError("forbidden", message("You cannot tip yourself."));
  if (input.amountCents < MIN_TIP_CENTS || input.amountCents > MAX_TIP_CENTS)
    throw fieldError("amountCents", TIP_AMOUNT_RANGE, tipRangeVars);
  const notification = notificationStatements(ctx, {
    userId: stream.creator_id,
    kind: "tip",
    actorId: fan.id,
    params: { amountCents: input.amountCents, streamId },
  });
  const outcome = await payFromWallet(ctx.db, {
    payer: fan,
    creatorId: stream.creator_id,
    kind: "live_tip",
    amountCents: input.amountCents,
    idempotencyKey: clientKey(input.idempotencyKey),
    request,
    liveStreamId: streamId,
    note,
    feePercent: ctx.config.PLATFORM_FEE_PERCENT,
    effects: () => [
      ...notification.statements,
      ctx.db
        .prepare("UPDATE live_streams SET tips_cents = tips_cents + ? WHERE id = ?")
        .bind(input.amountCents, streamId),
    ],
  });
  if (!outcome.replayed) {
    ctx.publish(notification.created(outcome.effects));
    ctx.publish({ type: "LiveTipped", streamId, paymentId: outcome.payment.id });
  }
  return { payment: presentPayment(outcome.payment), replayed: outcome.replayed };
}
