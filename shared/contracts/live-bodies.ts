/**
 * The live API's request bodies (going live, joining a stream), parsed by worker/api's routes; a tip during a
 * stream is money-bodies.ts's TipSchema. Ranges whose errors carry their amounts (an entry price, a goal) are
 * checked by worker/domain/live.
 */
import { z } from "zod";
import { INVALID_VALUE, message } from "../messages";
import { LIVE_AUDIENCES, MAX_LIVE_TITLE_LENGTH } from "./live-limits";
import { SeenPriceSchema, SeenPriceText } from "./money-bodies";
import { singleLineText } from "./text";

const TITLE_TOO_LONG = message("A title is at most 100 characters.");

const cents = z
  .number({ message: INVALID_VALUE })
  .int({ message: INVALID_VALUE })
  .max(Number.MAX_SAFE_INTEGER, { message: INVALID_VALUE });

export const StartLiveSchema = z
  .object({
    title: singleLineText({ message: INVALID_VALUE })
      .trim()
      .min(1, { message: message("Give your stream a title.") })
      .max(MAX_LIVE_TITLE_LENGTH, { message: TITLE_TOO_LONG }),
    audience: z.enum(LIVE_AUDIENCES, { message: INVALID_VALUE }),
    priceCents: cents.default(0),
    goalCents: cents.nullable().default(null),
    goalTitle: singleLineText({ message: INVALID_VALUE })
      .trim()
      .max(MAX_LIVE_TITLE_LENGTH, { message: TITLE_TOO_LONG })
      .nullable()
      .default(null),
  })
  .strict();
export type StartLiveInput = z.output<typeof StartLiveSchema>;

/** The entry price the fan was shown (absent: shown free); the entry is the stream's, paid once per person. */
export const JoinLiveSchema = z.object({ priceCents: SeenPriceSchema.optional() }).strict();

/** The same, from the join page's form, which always says the price it showed (its fields are text). */
export const JoinLiveFormSchema = z.object({ priceCents: SeenPriceText });
