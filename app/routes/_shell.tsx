import { Outlet } from "@remix-run/react";
import { lazy, Suspense, type ReactNode } from "react";
import { RouteErrorBoundary } from "~/components/route-error";
import { AppShell } from "~/components/shell/app-shell";
import { useRootData } from "~/root";
import { useSession } from "~/lib/session";

/** Shown only while the person's account is leaving: loaded then, so that no one else's first load carries it. */
const AccountDeletionBanner = lazy(() =>
  import("~/components/settings/account-deletion-banner").then((module) => ({ default: module.AccountDeletionBanner })),
);

/**
 * The pathless layout of every "with layout" route of spec §2: sidebar or bottom bar, content, and the right
 * column each child route asks for in `handle.rightColumn`.
 */
function Shell({ children }: { children: ReactNode }) {
  const { isAuth, user } = useSession();
  const root = useRootData();
  const viewerName = root?.viewerName ?? "";
  return (
    <AppShell
      viewer={{
        isAuth,
        isCreator: user.isCreator,
        username: user.username,
        avatarUrl: user.avatarUrl,
        name: viewerName || user.username,
      }}
    >
      {root?.accountDeletesAt ? (
        <Suspense fallback={null}>
          <AccountDeletionBanner deletesAt={root.accountDeletesAt} />
        </Suspense>
      ) : null}
      {children}
    </AppShell>
  );
}

export default function ShellLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** The layout's own failure: the navigation around it, so the way back is one tap away. */
export function ErrorBoundary() {
  return (
    <Shell>
      <RouteErrorBoundary />
    </Shell>
  );
}
