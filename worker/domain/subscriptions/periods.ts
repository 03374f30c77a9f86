import { PERIODS, type Period } from "@shared/contracts/subscription-constants";
export { PERIODS, type Period };

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * `months` months after `iso` (UTC), keeping the day of the month, clamped to the last day of a shorter month
 * (Jan 31 → Feb 28), so that a renewal never skips a month.
 */
export function addMonths(iso: string, months: number): string {
  const start = new Date(iso);
  const year = start.getUTCFullYear() + Math.floor((start.getUTCMonth() + months) / 12);
  const month = (start.getUTCMonth() + months) % 12;
  const end = new Date(start);
  end.setUTCFullYear(year, month, Math.min(start.getUTCDate(), daysInMonth(year, month)));
  return end.toISOString();
}

/** The end of one period started at `iso` (UTC); a month or a year as addMonths counts them. */
export function addPeriod(iso: string, period: Period): string {
  if (period === "week") return new Date(new Date(iso).getTime() + 7 * 24 * 3_600_000).toISOString();
  return addMonths(iso, period === "month" ? 1 : 12);
}

/** The end of a plan's period started at `iso`: a bundle's months, else one period. */
export const addPlanPeriod = (iso: string, plan: { period: Period; bundleMonths: number | null }): string =>
  plan.bundleMonths ? addMonths(iso, plan.bundleMonths) : addPeriod(iso, plan.period);

export const addDays = (iso: string, days: number): string =>
  new Date(new Date(iso).getTime() + days * 24 * 3_600_000).toISOString();
