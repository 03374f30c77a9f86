/**
 * The chat API's request bodies (starting a conversation, a message, a mass message, unlocking a paid message),
 * parsed by worker/api's routes and by the page's form actions alike. What needs the conversation (who may write,
 * the price to pay, a text's length once trimmed, whose media) is checked by worker/domain/messages.
 */
import { z } from "zod";
import { INVALID_VALUE, message } from "../messages";
import { MAX_MESSAGE_MEDIA } from "./message-limits";
import { now } from "../clock";
import { ListRefSchema } from "./fan-lists";
import { IdempotencyKeySchema } from "./money-bodies";
import { ClientIdSchema, idNumber, multilineText, singleLineText } from "./text";

const CHOOSE_A_LIST = message("Choose at least one list to send it to.");
const SEND_AT_IN_PAST = message("Choose a time in the future.");
const SEND_AT_TOO_FAR = message("A mass message can be scheduled at most one year ahead.");
const MASS_SCHEDULE_HORIZON_MS = 365 * 24 * 3600 * 1000;

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

const MAX_LISTS = 20;
const listRefs = z.array(ListRefSchema, { message: INVALID_VALUE }).max(MAX_LISTS, { message: INVALID_VALUE });

/** Who a mass message goes to: fans in any `include` list and in no `exclude` list. */
export const MassMessageAudienceSchema = z.object({
  include: listRefs.min(1, { message: CHOOSE_A_LIST }),
  exclude: listRefs.default([]),
});
export type MassMessageAudienceInput = z.output<typeof MassMessageAudienceSchema>;

/** An instant with its offset (the browser converts the creator's local time), stored as UTC ISO-8601. */
const sendAtSchema = z.iso
  .datetime({ offset: true, message: INVALID_VALUE })
  .transform((value) => new Date(value))
  .refine((at) => at.getTime() > now().getTime(), { message: SEND_AT_IN_PAST })
  .refine((at) => at.getTime() <= now().getTime() + MASS_SCHEDULE_HORIZON_MS, { message: SEND_AT_TOO_FAR })
  .transform((at) => at.toISOString());

const massMessageFields = {
  ...MassMessageAudienceSchema.shape,
  text: SendMessageSchema.shape.text,
  mediaIds: SendMessageSchema.shape.mediaIds,
  priceCents: SendMessageSchema.shape.priceCents,
  /** Absent: it goes now. */
  sendAt: sendAtSchema.optional(),
};

export const SendMassMessageSchema = z.object({ clientId: ClientIdSchema, ...massMessageFields });
export type SendMassMessageInput = z.output<typeof SendMassMessageSchema>;

/** A scheduled mass message, as it is to be: every field again (sendAt absent: it goes now). */
export const EditMassMessageSchema = z.object(massMessageFields);
export type EditMassMessageInput = z.output<typeof EditMassMessageSchema>;

export const UnlockMessageSchema = z.object({
  /** The price the fan was shown: a different one is refused rather than charged. */
  priceCents: z.number({ message: INVALID_VALUE }).int({ message: INVALID_VALUE }).positive({ message: INVALID_VALUE }),
  idempotencyKey: IdempotencyKeySchema,
});
export type UnlockMessageInput = z.output<typeof UnlockMessageSchema>;
