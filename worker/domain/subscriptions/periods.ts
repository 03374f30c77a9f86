import { PERIODS, type Period } from "@shared/contracts/subscription-constants";
export { PERIODS, type Period };

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * The end of one period started at `iso` (UTC). A month or year keeps the day of the month, clamped to the
 * last day of a shorter month (Jan 31 → Feb 28), so that a renewal never skips a month.
 */
export function addPeriod(iso: string, period: Period): string {
  const start = new Date(iso);
  if (period === "week") return new Date(start.getTime() + 7 * 24 * 3_600_000).toISOString();
  const months = period === "month" ? 1 : 12;
  const year = start.getUTCFullYear() + Math.floor((start.getUTCMonth() + months) / 12);
  const month = (start.getUTCMonth() + months) % 12;
  const end = new Date(start);
  end.setUTCFullYear(year, month, Math.min(start.getUTCDate(), daysInMonth(year, month)));
  return end.toISOString();
}
