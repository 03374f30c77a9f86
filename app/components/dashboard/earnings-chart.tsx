import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { EarningsOverview } from "@shared/contracts/money";
import { EARNING_SOURCES } from "@shared/contracts/money-constants";
import { CalendarDay } from "~/components/dashboard/calendar-day";
import { SOURCE_COLOURS, useMoney, useSourceLabels } from "~/components/dashboard/use-money";

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 4;

/**
 * The last 30 days as bars stacked by source, drawn in SVG. The picture has a title and a summary; the same
 * figures are in a table that only screen readers read.
 */
export function EarningsChart({ days }: { days: EarningsOverview["days"] }) {
  const { t } = useTranslation();
  const money = useMoney();
  const labels = useSourceLabels();
  const id = useId();
  const totalOf = (entry: EarningsOverview["days"][number]) =>
    EARNING_SOURCES.reduce((sum, source) => sum + entry[source], 0);
  const highest = Math.max(1, ...days.map(totalOf));
  const barWidth = WIDTH / days.length - GAP;
  const total = days.reduce((sum, entry) => sum + totalOf(entry), 0);
  return (
    <figure className="space-y-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="none"
        className="h-40 w-full"
      >
        <title id={`${id}-title`}>{t("Earnings of the last 30 days by source")}</title>
        <desc id={`${id}-desc`}>
          {t("{{total}} in 30 days. The table below lists each day.", { total: money(total) })}
        </desc>
        <line
          x1={0}
          x2={WIDTH}
          y1={HEIGHT - 0.5}
          y2={HEIGHT - 0.5}
          className="stroke-slate-300 dark:stroke-slate-700"
        />
        {days.map((entry, index) => {
          let top = HEIGHT;
          return (
            <g key={entry.date}>
              {EARNING_SOURCES.map((source) => {
                const height = (entry[source] / highest) * (HEIGHT - 8);
                if (height === 0) return null;
                top -= height;
                return (
                  <rect
                    key={source}
                    x={index * (barWidth + GAP) + GAP / 2}
                    y={top}
                    width={barWidth}
                    height={height}
                    className={SOURCE_COLOURS[source]}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      <div className="flex justify-between text-xs text-slate-500 dark:text-slate-400" aria-hidden="true">
        <span>
          <CalendarDay day={days[0]!.date} />
        </span>
        <span>{t("Today")}</span>
      </div>
      <figcaption
        className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-400"
        aria-hidden="true"
      >
        {EARNING_SOURCES.map((source) => (
          <span key={source} className="flex items-center gap-1.5">
            <svg viewBox="0 0 10 10" className="h-2.5 w-2.5">
              <rect width={10} height={10} rx={2} className={SOURCE_COLOURS[source]} />
            </svg>
            {labels[source]}
          </span>
        ))}
      </figcaption>
      {/* Visually hidden by its wrapper: a table's box grows with its rows whatever its height says, and clip and
          overflow do not apply to it, so `sr-only` on the table itself left 830 px to scroll into. */}
      <div className="sr-only">
        <table>
          <caption>{t("Earnings of the last 30 days by source")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("Date")}</th>
              {EARNING_SOURCES.map((source) => (
                <th key={source} scope="col">
                  {labels[source]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((entry) => (
              <tr key={entry.date}>
                <th scope="row">
                  <CalendarDay day={entry.date} />
                </th>
                {EARNING_SOURCES.map((source) => (
                  <td key={source}>{money(entry[source])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
