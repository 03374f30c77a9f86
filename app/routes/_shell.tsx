import { isRouteErrorResponse, Outlet, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isNetworkFailure, OFFLINE_STATUS } from "~/lib/offline-copies";
import { EmptyState } from "~/components/page";
import { AppShell } from "~/components/shell/app-shell";
import { useRootData } from "~/root";
import { useSession } from "~/lib/session";

/**
 * The pathless layout of every "with layout" route of spec §2: sidebar or bottom bar, content, and the right
 * column each child route asks for in `handle.rightColumn`.
 */
function Shell({ children }: { children: ReactNode }) {
  const { isAuth, user } = useSession();
  const viewerName = useRootData()?.viewerName ?? "";
  return <AppShell viewer={{ isAuth, isCreator: user.isCreator, username: user.username, avatarUrl: user.avatarUrl, name: viewerName || user.username }}>{children}</AppShell>;
}

export default function ShellLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** A missing post, profile or conversation keeps the navigation around it, so the way back is one tap away. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // Offline on a screen this device kept no copy of (app/lib/offline-copies.ts), or whose data could not be
  // fetched for want of a network: a calm state, not a failure.
  if ((isRouteErrorResponse(error) && error.status === OFFLINE_STATUS) || isNetworkFailure(error)) {
    return (
      <Shell>
        <EmptyState icon="search" title={t("You are offline")} text={t("This page was not saved on this device. It opens again once you are back online.")} />
      </Shell>
    );
  }
  if (!notFound) console.error(error);
  return (
    <Shell>
      <EmptyState
        icon="search"
        title={notFound ? t("Page not found") : t("Something went wrong")}
        text={notFound ? t("The page you are looking for does not exist.") : t("Please try again in a moment.")}
        action={{ to: "/home", label: t("Go to your feed") }}
      />
    </Shell>
  );
}
