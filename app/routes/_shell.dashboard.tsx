import { NavLink, Outlet } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { useActiveTabInView } from "~/lib/use-active-tab-in-view";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Dashboard"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/**
 * /dashboard: a creator's earnings overview (the index), payout history, withdrawal request, payout methods, plans,
 * promotions and fans, one child route each (_shell.dashboard.*.tsx) that loads only its own data and answers its
 * own form. This layout holds what they share: the title and the row of tabs.
 */
export default function DashboardLayout() {
  const { t } = useTranslation();
  const tabs = useActiveTabInView<HTMLUListElement>();
  const links = [
    { to: "/dashboard", label: t("Earnings") },
    { to: "/dashboard/payouts", label: t("Payout history") },
    { to: "/dashboard/withdraw", label: t("Request a withdrawal") },
    { to: "/dashboard/payout-methods", label: t("Payout methods") },
    { to: "/dashboard/plans", label: t("Subscription plans") },
    { to: "/dashboard/promotions", label: t("Promotions") },
    { to: "/dashboard/fans", label: t("Fans") },
    { to: "/vault", label: t("Vault") },
  ];
  return (
    <>
      <PageHeader title={t("Dashboard")} />
      <nav aria-label={t("Dashboard")} className="border-b border-slate-200 px-2 dark:border-slate-800">
        <ul ref={tabs} className="flex gap-1 overflow-x-auto py-2">
          {links.map(({ to, label }) => (
            <li key={to}>
              <NavLink
                to={to}
                end={to === "/dashboard"}
                className={({ isActive }) =>
                  `block whitespace-nowrap rounded-full px-3 py-1.5 text-sm ${isActive ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </>
  );
}
