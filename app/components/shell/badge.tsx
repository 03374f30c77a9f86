import { useTranslation } from "react-i18next";
import { badgeCount, type NavKey } from "~/lib/navigation";
import { useUpdates } from "~/lib/updates";

/**
 * The indicators of spec §2, on the corner of an entry's icon: a dot on Home, counts on Notifications and Messages (none at 0), "!" on Wallet.
 * Each carries words for screen readers; `data-badge` names it for tests. On a 24 px icon the glyphs end by 21 px,
 * so the dot and the counts start at 22 px: beside the glyph's top corner, never over the house, bell or bubble.
 */
export function NavBadge({ entry }: { entry: NavKey }) {
  const { t } = useTranslation();
  const { updates } = useUpdates();
  if (entry === "home" && updates.home) {
    return (
      <span
        data-badge="home"
        className="absolute -top-1 start-[1.375rem] h-2.5 w-2.5 rounded-full bg-brand-500 ring-2 ring-white dark:ring-slate-950"
      >
        <span className="sr-only">{t("New posts")}</span>
      </span>
    );
  }
  if (entry === "notifications" || entry === "messages") {
    const text = badgeCount(updates[entry]);
    if (!text) return null;
    return (
      <span
        data-badge={entry}
        className="absolute -top-2 start-[1.375rem] h-4 min-w-4 rounded-full bg-red-600 px-1 text-center text-[0.6875rem] font-bold leading-4 text-white ring-2 ring-white dark:ring-slate-950"
      >
        <span aria-hidden="true">{text}</span>
        <span className="sr-only">{t("Unread: {{number}}", { number: text })}</span>
      </span>
    );
  }
  if (entry === "wallet" && updates.balance) {
    return (
      <span
        data-badge="wallet"
        className="absolute -end-1 -top-1 h-5 w-5 rounded-full bg-amber-500 text-center text-xs font-bold leading-5 text-slate-950"
      >
        <span aria-hidden="true">!</span>
        <span className="sr-only">{t("Your balance is low")}</span>
      </span>
    );
  }
  return null;
}
