/**
 * The chat API's request bodies (starting a conversation, a message, a mass message, unlocking a paid message),
 * parsed by worker/api's routes and by the page's form actions alike. What needs the conversation (who may write,
 * the price to pay, a text's length once trimmed, whose media) is checked by worker/domain/messages.
 */
import { z } from "zod";
import { INVALID_VALUE } from "../messages";
import { MAX_MESSAGE_MEDIA } from "./message-limits";
import { MASS_AUDIENCES } from "./messages";
import { IdempotencyKeySchema } from "./money-bodies";
import { ClientIdSchema, idNumber, multilineText, singleLineText } from "./text";

/** A conversation with the member named `username`: theirs with the caller if it exists, else a new one. */
export const StartConversationSchema = z.object({
  username: singleLineText()
    .min(1)
    .max(64)
    .transform((name) => name.toLowerCase()),
});

export const SendMessageSchema = z.object({
  clientId: ClientIdSchema,
  text: multilineText({ message: INVALID_VALUE }).default(""),
  mediaIds: z
    .array(idNumber, { message: INVALID_VALUE })
    .max(MAX_MESSAGE_MEDIA, { message: INVALID_VALUE })
    .default([]),
  priceCents: z
    .number({ message: INVALID_VALUE })
    .int({ message: INVALID_VALUE })
    .min(0, { message: INVALID_VALUE })
    .default(0),
  /**
   * The most the sender agrees to pay for sending it: the per-message price they were shown (absent: none). A
   * higher price is refused instead of charged; a message kept offline and sent later says 0 (money never waits in
   * the outbox).
   */
  maxPaidCents: z
    .number({ message: INVALID_VALUE })
    .int({ message: INVALID_VALUE })
    .min(0, { message: INVALID_VALUE })
    .optional(),
});
export type SendMessageInput = z.output<typeof SendMessageSchema>;

export const SendMassMessageSchema = SendMessageSchema.extend({
  clientId: ClientIdSchema,
  audience: z.enum(MASS_AUDIENCES, { message: INVALID_VALUE }),
});
export type SendMassMessageInput = z.output<typeof SendMassMessageSchema>;

export const UnlockMessageSchema = z.object({
  /** The price the fan was shown: a different one is refused rather than charged. */
  priceCents: z.number({ message: INVALID_VALUE }).int({ message: INVALID_VALUE }).positive({ message: INVALID_VALUE }),
  idempotencyKey: IdempotencyKeySchema,
});
export type UnlockMessageInput = z.output<typeof UnlockMessageSchema>;
