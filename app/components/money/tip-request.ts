import type { Shape } from "@shared/shape";
import { paidMessageShape, paymentResultShape } from "~/components/money/tip-shapes";
import type { TipAnswer, TipTarget } from "~/components/money/tip-button";

/** Where a tip to the target is sent, and the check of the server's answer to it. */
export function tipRequest(target: TipTarget): { path: string; check: Shape<TipAnswer> } {
  if ("postId" in target) return { path: `/posts/${target.postId}/tips`, check: paymentResultShape };
  if ("conversationId" in target)
    return { path: `/conversations/${target.conversationId}/tips`, check: paidMessageShape };
  if ("liveStreamId" in target) return { path: `/live/${target.liveStreamId}/tips`, check: paymentResultShape };
  return { path: `/users/${encodeURIComponent(target.username)}/tips`, check: paymentResultShape };
}
