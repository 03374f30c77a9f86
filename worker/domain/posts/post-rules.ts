import { z } from "zod";
import { message } from "@shared/messages";
import { idNumber, multilineText } from "@shared/contracts/text";
import { DAY, now } from "../shared/time";
import { AUDIENCES } from "./access";

const POST_TEXT_MAX = 5000;
const POST_MEDIA_MAX = 20;
/** A paid post costs from $1 to $200; 0 is free. */
const POST_PRICE_MIN_CENTS = 100;
const POST_PRICE_MAX_CENTS = 20_000;
const SCHEDULE_HORIZON_MS = 365 * DAY;

const AUDIENCE_REQUIRED = message("Who can see field is required!");
export const POST_EMPTY = message("Write something or add a photo or video.");
export const POST_NOT_FOUND = message("This post does not exist.");
export const ONLY_CREATORS_POST = message("Only creators can post.");
export const ALREADY_PUBLISHED = message("This post is already published.");
export const NOT_SCHEDULED = message("Only a scheduled post can be published now.");
export const MEDIA_NOT_ATTACHABLE = message("A photo or video could not be attached. Please upload it again.");
const TEXT_TOO_LONG = message("A post may have at most 5000 characters.");
const PRICE_RULE = message("The price is either free or between {{min, money}} and {{max, money}}.", {
  min: POST_PRICE_MIN_CENTS,
  max: POST_PRICE_MAX_CENTS,
});
const TOO_MANY_MEDIA = message("A post may have at most 20 photos and videos.");
const SCHEDULE_IN_PAST = message("Choose a time in the future.");
const SCHEDULE_TOO_FAR = message("Posts can be scheduled at most one year ahead.");

const textSchema = multilineText().trim().max(POST_TEXT_MAX, { message: TEXT_TOO_LONG });
const audienceSchema = z.enum(AUDIENCES, { message: AUDIENCE_REQUIRED });
const priceSchema = z
  .number()
  .int()
  .refine((cents) => cents === 0 || (cents >= POST_PRICE_MIN_CENTS && cents <= POST_PRICE_MAX_CENTS), {
    message: PRICE_RULE,
  });

/** An instant with its offset (the browser converts the creator's local time), stored as UTC ISO-8601. */
const scheduledAtSchema = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((at) => at.getTime() > now().getTime(), { message: SCHEDULE_IN_PAST })
  .refine((at) => at.getTime() <= now().getTime() + SCHEDULE_HORIZON_MS, { message: SCHEDULE_TOO_FAR })
  .transform((at) => at.toISOString());

const mediaIdsSchema = z
  .array(idNumber)
  .max(POST_MEDIA_MAX, { message: TOO_MANY_MEDIA })
  .refine((ids) => new Set(ids).size === ids.length);

export const createPostSchema = z
  .object({
    text: textSchema.default(""),
    audience: audienceSchema,
    priceCents: priceSchema.default(0),
    mediaIds: mediaIdsSchema.default([]),
    scheduledAt: scheduledAtSchema.optional(),
  })
  .refine((post) => post.text.length > 0 || post.mediaIds.length > 0, { message: POST_EMPTY, path: ["text"] });

export type CreatePostInput = z.output<typeof createPostSchema>;

/** Only the fields sent change; scheduledAt only before publication. */
export const updatePostSchema = z.object({
  text: textSchema.optional(),
  audience: audienceSchema.optional(),
  priceCents: priceSchema.optional(),
  scheduledAt: scheduledAtSchema.optional(),
});

export type UpdatePostInput = z.output<typeof updatePostSchema>;

export const POSTS_PAGE_SIZE = 20;
