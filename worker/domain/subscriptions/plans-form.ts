import { parseDollars } from "@shared/typed-dollars";
import { AppError, type FieldErrors } from "../shared/errors";
import { message } from "@shared/messages";
import {
  MAX_MESSAGE_PRICE_CENTS,
  MAX_PRICE_CENTS,
  MESSAGE_PRICE_OUT_OF_RANGE,
  MIN_PAID_PRICE_CENTS,
  PRICE_OUT_OF_RANGE,
  type PlanView,
} from "./plans";
import { PERIODS } from "./periods";

const PRICE_FORMAT = message("Enter a price in dollars, like 9.99.");

/** A price field as cents (the one rule of typed dollars); null when absent or not an amount. */
const centsOf = (text: string | undefined) => parseDollars(text ?? "");

/**
 * The plans page's form (dashboard → plans): for each period, `offer_{period}` ("on" when offered) and
 * `price_{period}` in dollars; `message_price` in dollars (0: messages are free), left unchanged when absent.
 * Errors are reported on the field they concern.
 */
export function plansFromForm(fields: Record<string, string>): { plans: PlanView[]; messagePriceCents?: number } {
  const plans: PlanView[] = [];
  const errors: FieldErrors = {};
  for (const period of PERIODS) {
    if (fields[`offer_${period}`] !== "on") continue;
    const cents = centsOf(fields[`price_${period}`]);
    if (cents === null) errors[`price_${period}`] = [PRICE_FORMAT];
    else if (cents !== 0 && (cents < MIN_PAID_PRICE_CENTS || cents > MAX_PRICE_CENTS))
      errors[`price_${period}`] = [PRICE_OUT_OF_RANGE];
    else plans.push({ period, priceCents: cents });
  }
  let messagePriceCents: number | undefined;
  if (fields.message_price !== undefined) {
    const cents = centsOf(fields.message_price);
    if (cents === null) errors.message_price = [PRICE_FORMAT];
    else if (cents > MAX_MESSAGE_PRICE_CENTS) errors.message_price = [MESSAGE_PRICE_OUT_OF_RANGE];
    else messagePriceCents = cents;
  }
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new AppError("validation", first, errors);
  return messagePriceCents === undefined ? { plans } : { plans, messagePriceCents };
}
