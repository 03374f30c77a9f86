/**
 * A creator's welcome message, sent once to each new subscriber (docs/decisions/welcome-message.md). Answers and
 * body of GET and PUT /api/me/welcome-message; the page imports types only from here.
 */
import { z } from "zod";
import { INVALID_VALUE } from "../messages";
import { MAX_MESSAGE_MEDIA } from "./message-limits";
import { idNumber, multilineText } from "./text";

export const WelcomeMessageSchema = z
  .object({
    enabled: z.boolean().meta({ description: "Sent to each new subscriber while on" }),
    text: z.string(),
    priceCents: z.number().int().meta({ description: "Pay-per-view price (0: free); only with media" }),
    media: z.array(
      z.object({
        id: z.number().int(),
        kind: z.enum(["image", "video"]),
        url: z.string().meta({ description: "The owner's view of the file (/media/...)" }),
      }),
    ),
  })
  .meta({ id: "WelcomeMessage" });
export type WelcomeMessageView = z.infer<typeof WelcomeMessageSchema>;

export const WelcomeMessageBodySchema = z.object({
  enabled: z.boolean({ message: INVALID_VALUE }),
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
});
export type WelcomeMessageInput = z.output<typeof WelcomeMessageBodySchema>;
