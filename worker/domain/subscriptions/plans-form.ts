import { AppError, type FieldErrors } from "../shared/errors";
import { message } from "../shared/messages";
import { MAX_PRICE_CENTS, MIN_PAID_PRICE_CENTS, PRICE_OUT_OF_RANGE, type PlanView } from "./plans";
import { PERIODS } from "./periods";

const PRICE_FORMAT = message("Enter a price in dollars, like 9.99.");

/**
 * The plans page's form (dashboard → plans): for each period, `offer_{period}` ("on" when offered) and
 * `price_{period}` in dollars. Errors are reported on `price_{period}`.
 */
export function plansFromForm(fields: Record<string, string>): { plans: PlanView[] } {
  const plans: PlanView[] = [];
  const errors: FieldErrors = {};
  for (const period of PERIODS) {
    if (fields[`offer_${period}`] !== "on") continue;
    const text = (fields[`price_${period}`] ?? "").trim().replace(/^\$/, "");
    // "9.99" or, as many locales write it, "9,99".
    const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text);
    if (!match) {
      errors[`price_${period}`] = [PRICE_FORMAT];
      continue;
    }
    const cents = Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
    if (cents !== 0 && (cents < MIN_PAID_PRICE_CENTS || cents > MAX_PRICE_CENTS)) errors[`price_${period}`] = [PRICE_OUT_OF_RANGE];
    else plans.push({ period, priceCents: cents });
  }
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new AppError("validation", first, errors);
  return { plans };
}
