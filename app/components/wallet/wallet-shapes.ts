// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { PaymentPage, PaymentView } from "@shared/contracts/money";
import { array, nullable, number, object, oneOf, orDefault, string, type Shape } from "@shared/shape";

export const paymentShape: Shape<PaymentView> = object({
  id: number,
  kind: oneOf("top_up", "subscription", "renewal", "tip", "post", "message", "live", "live_tip"),
  amountCents: number,
  status: oneOf("pending", "requires_confirmation", "succeeded", "failed"),
  createdAt: string,
  creator: nullable(object({ username: string, name: string, avatarUrl: string })),
  postId: nullable(number),
  note: nullable(string),
  failureReason: nullable(string),
  checkoutPath: orDefault(nullable(string), () => null),
});

export const paymentPageShape: Shape<PaymentPage> = object({
  payments: array(paymentShape),
  nextCursor: nullable(number),
});
