import { BUNDLE_DISCOUNT_RANGE, BundlesSchema, type BundlesInput } from "@shared/contracts/offer-bodies";
import { BUNDLE_MONTHS, type BundleMonths } from "@shared/contracts/offer-constants";
import { AppError, type FieldErrors } from "../shared/errors";
import { wholeNumberOf } from "./offers-form";

const FIELD_ORDER = [...BUNDLE_MONTHS.map((months) => `discount_${months}`), "bundles"];

/**
 * The bundles of the plans page's form (dashboard → plans): for 3, 6 and 12 months, `bundle_{months}` ("on" when
 * offered) and `discount_{months}`, a whole percent. They become the API's body, checked by its schema; a bad
 * discount is reported on its own field, anything else about the bundles on `bundles`.
 */
export function bundlesFromForm(fields: Record<string, string>): BundlesInput {
  const bundles: { months: BundleMonths; discountPercent: number }[] = [];
  const errors = new Map<string, string[]>();
  for (const months of BUNDLE_MONTHS) {
    if (fields[`bundle_${months}`] !== "on") continue;
    const discountPercent = wholeNumberOf(fields[`discount_${months}`]);
    if (Number.isNaN(discountPercent)) errors.set(`discount_${months}`, [BUNDLE_DISCOUNT_RANGE]);
    else bundles.push({ months, discountPercent });
  }
  const parsed = BundlesSchema.safeParse({ bundles });
  for (const issue of parsed.error?.issues ?? []) {
    const [, index, key] = issue.path;
    const field =
      typeof index === "number" && key === "discountPercent" ? `discount_${bundles[index]!.months}` : "bundles";
    if (!errors.has(field)) errors.set(field, [issue.message]);
  }
  if (parsed.success && errors.size === 0) return parsed.data;
  const fieldErrors: FieldErrors = Object.fromEntries(
    FIELD_ORDER.flatMap((field) => (errors.has(field) ? [[field, errors.get(field)!]] : [])),
  );
  throw new AppError("validation", Object.values(fieldErrors)[0]![0]!, fieldErrors);
}
