import { z } from "zod";
import {
  PromotionSchema,
  RetentionSchema,
  TRIAL_DAYS_NEEDED,
  TrialLinkSchema,
  type PromotionInput,
  type RetentionInput,
  type TrialLinkInput,
} from "@shared/contracts/offer-bodies";
import { idText } from "@shared/contracts/text";
import { parseOrThrow, validationError } from "../shared/validation";

/**
 * The forms of Dashboard → Promotions, read into the API's bodies and checked by the same schemas, so each error
 * lands on the field of the same name. A number field holds whole digits; anything else is passed on as NaN, which
 * the schema refuses on that field. `endsAt` is the end of the chosen day in the creator's time zone, written by
 * the page as an ISO time.
 */

/** A whole number typed in a field (an optional "%" after it), or NaN when it is anything else. */
export function wholeNumberOf(text: string | undefined): number {
  const match = /^\s*(\d{1,9})\s*%?\s*$/.exec(text ?? "");
  return match ? Number(match[1]) : Number.NaN;
}

/** An optional number field: left empty, null. */
const optionalWholeNumberOf = (text: string | undefined) => ((text ?? "").trim() === "" ? null : wholeNumberOf(text));

/**
 * A new promotion: `percentOff`, `audience`, `claimLimit` (empty: no limit), `endsAt`, and either `trialDays` (at
 * 100% off, a free trial, then the plan's price) or `periods` (below 100%, how many periods the price holds): the
 * page shows one field or the other.
 */
export function promotionFromForm(fields: Record<string, string>): PromotionInput {
  const percentOff = wholeNumberOf(fields.percentOff);
  const free = percentOff === 100;
  const trialDays = free ? (optionalWholeNumberOf(fields.trialDays) ?? undefined) : undefined;
  const parsed = PromotionSchema.safeParse({
    percentOff,
    trialDays,
    audience: fields.audience,
    periods: free ? undefined : wholeNumberOf(fields.periods),
    claimLimit: optionalWholeNumberOf(fields.claimLimit),
    endsAt: fields.endsAt,
  });
  if (parsed.success) return parsed.data;
  const error = validationError(parsed.error);
  // The schema asks for the trial's length only once every other field is right: the form says it with the others.
  if (free && trialDays === undefined) error.fieldErrors.trialDays ??= [TRIAL_DAYS_NEEDED];
  throw error;
}

/** A new trial link: `days`, `claimLimit` (empty: no limit), `endsAt`, `code` (empty: one is made up). */
export function trialLinkFromForm(fields: Record<string, string>): TrialLinkInput {
  const code = (fields.code ?? "").trim().toLowerCase();
  return parseOrThrow(TrialLinkSchema, {
    days: wholeNumberOf(fields.days),
    claimLimit: optionalWholeNumberOf(fields.claimLimit),
    endsAt: fields.endsAt,
    code: code === "" ? undefined : code,
  });
}

/** The retention offer: `active` ("on" when checked) with `percentOff` and `periods`; unchecked, off. */
export function retentionFromForm(fields: Record<string, string>): RetentionInput {
  if (fields.active !== "on") return parseOrThrow(RetentionSchema, { active: false });
  return parseOrThrow(RetentionSchema, {
    active: true,
    percentOff: wholeNumberOf(fields.percentOff),
    periods: wholeNumberOf(fields.periods),
  });
}

const EndOfferSchema = z.object({ offerId: idText });

/** The promotion or trial link whose "End now" was pressed (`offerId`). */
export const offerIdFromForm = (fields: Record<string, string>): number => parseOrThrow(EndOfferSchema, fields).offerId;
