import { parseDollars } from "@shared/typed-dollars";
import { fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { OVER_MAXIMUM } from "@shared/contracts/money-bodies";

const AMOUNT_FORMAT = message("Enter an amount in dollars, like 12.50.");

/**
 * The cents of the amount typed in the withdrawal form: an amount written as dollars but over the largest one a
 * withdrawal may be says so; anything else that is not an amount says how to write one.
 */
export function withdrawalCentsFromForm(typed: string): number {
  const cents = parseDollars(typed);
  if (cents !== null) return cents;
  if (/^\$?\s*(?:[1-9]\d{7,}|[1-9]\d{0,2}(?:,\d{3}){2,})(?:\.\d{1,2})?$/.test(typed.trim()))
    throw fieldError("amount", OVER_MAXIMUM);
  throw fieldError("amount", AMOUNT_FORMAT);
}
