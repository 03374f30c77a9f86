import { parseDollars } from "@shared/typed-dollars";
import { SetPlansSchema, type SetPlansInput } from "@shared/contracts/subscription-bodies";
import { AppError, type FieldErrors } from "../shared/errors";
import { message } from "@shared/messages";
import { PERIODS, type Period } from "./periods";

const PRICE_FORMAT = message("Enter a price in dollars, like 9.99.");

/** A price field as cents (the one rule of typed dollars); null when absent or not an amount. */
const centsOf = (text: string | undefined) => parseDollars(text ?? "");

const FIELD_ORDER = [...PERIODS.map((period) => `price_${period}`), "message_price"];

/**
 * The plans page's form (dashboard → plans): for each period, `offer_{period}` ("on" when offered) and
 * `price_{period}` in dollars; `message_price` in dollars (0: messages are free), left unchanged when absent.
 * The dollars become the API's body, checked by its schema; errors are reported on the field they concern.
 */
export function plansFromForm(fields: Record<string, string>): SetPlansInput {
  const plans: { period: Period; priceCents: number }[] = [];
  const errors = new Map<string, string[]>();
  for (const period of PERIODS) {
    if (fields[`offer_${period}`] !== "on") continue;
    const cents = centsOf(fields[`price_${period}`]);
    if (cents === null) errors.set(`price_${period}`, [PRICE_FORMAT]);
    else plans.push({ period, priceCents: cents });
  }
  let messagePriceCents: number | undefined;
  if (fields.message_price !== undefined) {
    const cents = centsOf(fields.message_price);
    if (cents === null) errors.set("message_price", [PRICE_FORMAT]);
    else messagePriceCents = cents;
  }
  const parsed = SetPlansSchema.safeParse(messagePriceCents === undefined ? { plans } : { plans, messagePriceCents });
  for (const issue of parsed.error?.issues ?? []) {
    const [key, index] = issue.path;
    const field = key === "plans" && typeof index === "number" ? `price_${plans[index]!.period}` : "message_price";
    if (!errors.has(field)) errors.set(field, [issue.message]);
  }
  if (parsed.success && errors.size === 0) return parsed.data;
  const fieldErrors: FieldErrors = Object.fromEntries(
    FIELD_ORDER.flatMap((field) => (errors.has(field) ? [[field, errors.get(field)!]] : [])),
  );
  throw new AppError("validation", Object.values(fieldErrors)[0]![0]!, fieldErrors);
}
