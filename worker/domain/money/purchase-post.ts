import type { PurchaseInput } from "@shared/contracts/money-bodies";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { postAccessCheck } from "../policies/posts";
import { notificationStatements } from "../notifications/notifications";
import { AppError, PriceChangedError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import {
  findPaymentByKey,
  paymentByKeyRead,
  payFromWallet,
  presentPayment,
  replayedFrom,
  type PaymentRow,
  type PaymentView,
} from "./payments";
import { ALREADY_PURCHASED, clientKey, NOT_FOR_SALE } from "./rules";
import { NOT_A_CREATOR } from "./send-tip";

const SUBSCRIBE_FIRST = message("Subscribe to this creator to buy this post.");
const FOLLOW_FIRST = message("Follow this creator to buy this post.");

/**
 * Buys a paid post: the fan's wallet pays its price, and a post_purchases row (primary key: fan and post) unlocks
 * it, in one batch, so a post is never bought twice and never unlocked without being paid for.
 */
export async function purchasePost(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  fan: UserRow,
  postId: number,
  input: PurchaseInput,
): Promise<{ payment: PaymentView; replayed: boolean }> {
  const { db } = ctx;
  // A replay answers with the purchase made, whatever changed since (a block, the post's audience or price).
  const key = clientKey(input.idempotencyKey);
  const replayOf = async (found: PaymentRow | null) => {
    const earlier = await replayedFrom(found, { kind: "post", amountCents: input.priceCents, request: { postId } });
    return earlier && { payment: presentPayment(earlier), replayed: true };
  };
  // The replay lookup and the access check, in one batch.
  const replay = paymentByKeyRead(db, fan.id, key);
  const check = postAccessCheck(db, postId, fan.id, "see");
  const [found, checked] = await db.batch([replay.statement, check.statement]);
  const first = await replayOf(replay.answer(found!));
  if (first) return first;
  const post = check.answer(checked!);
  if (post.lock === null) {
    // Open already: bought by a request with this key that raced this one (its answer is this one's too), bought
    // before with another key, free, or the fan's own post.
    const raced = await replayOf(await findPaymentByKey(db, fan.id, key));
    if (raced) return raced;
    const bought = post.priceCents > 0 && post.authorId !== fan.id;
    throw new AppError("conflict", bought ? ALREADY_PURCHASED : NOT_FOR_SALE);
  }
  if (post.lock !== "purchase")
    throw new AppError("forbidden", post.lock === "subscribe" ? SUBSCRIBE_FIRST : FOLLOW_FIRST);
  if (!post.authorIsCreator) throw new AppError("forbidden", NOT_A_CREATOR);
  if (post.priceCents !== input.priceCents) throw new PriceChangedError(post.priceCents);
  const notification = notificationStatements(ctx, {
    userId: post.authorId,
    kind: "purchase",
    actorId: fan.id,
    params: { amountCents: input.priceCents, postId },
  });
  const outcome = await payFromWallet(db, {
    payer: fan,
    creatorId: post.authorId,
    kind: "post",
    amountCents: input.priceCents,
    idempotencyKey: clientKey(input.idempotencyKey),
    request: { postId },
    postId,
    feePercent: ctx.config.PLATFORM_FEE_PERCENT,
    effects: () => [
      ...notification.statements,
      db
        .prepare("INSERT INTO post_purchases (post_id, user_id, price_cents, created_at) VALUES (?, ?, ?, ?)")
        .bind(postId, fan.id, input.priceCents, isoNow()),
    ],
    refusal: (error) => (String(error).includes("post_purchases") ? new AppError("conflict", ALREADY_PURCHASED) : null),
  });
  if (!outcome.replayed) ctx.publish(notification.created(outcome.effects));
  return { payment: presentPayment(outcome.payment), replayed: outcome.replayed };
}
