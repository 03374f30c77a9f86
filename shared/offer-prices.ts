/**
 * The arithmetic of offers, the same for the Worker (which charges) and the page (which shows): whole cents,
 * rounded half up. The Worker never takes a price from the page; it computes it here from the creator's offer.
 */

/** `cents` with `percent` off. */
export const discountedCents = (cents: number, percent: number): number =>
  Math.floor((cents * (100 - percent) + 50) / 100);

/** A bundle of `months` months at `discountPercent` off the monthly price. */
export const bundlePriceCents = (monthlyCents: number, discountPercent: number, months: number): number =>
  discountedCents(monthlyCents * months, discountPercent);

/** What a bundle saves against paying `months` months one at a time. */
export const bundleSavingsCents = (monthlyCents: number, discountPercent: number, months: number): number =>
  monthlyCents * months - bundlePriceCents(monthlyCents, discountPercent, months);

/**
 * A gift of `months` months: one month at the monthly price; several at the creator's bundle of that length when
 * there is one, else that many months at the monthly price.
 */
export function giftPriceCents(
  monthlyCents: number,
  bundles: readonly { months: number; discountPercent: number }[],
  months: number,
): number {
  const bundle = months > 1 ? bundles.find((offered) => offered.months === months) : undefined;
  return bundle ? bundlePriceCents(monthlyCents, bundle.discountPercent, months) : monthlyCents * months;
}
