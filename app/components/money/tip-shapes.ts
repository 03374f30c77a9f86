// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { PaymentResult } from "@shared/contracts/money";
import type { PaidMessage } from "@shared/contracts/messages";
import { paymentShape } from "~/components/wallet/wallet-shapes";
import { messageShape } from "~/components/messages/chat-shapes";
import { boolean, object, type Shape } from "@shared/shape";

export const paymentResultShape: Shape<PaymentResult> = object({ payment: paymentShape, replayed: boolean });

export const paidMessageShape: Shape<PaidMessage> = object({
  message: messageShape,
  replayed: boolean,
  payment: paymentShape,
});
