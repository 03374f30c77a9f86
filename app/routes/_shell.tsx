import { Outlet } from "@remix-run/react";
import { AppShell } from "~/components/shell/app-shell";
import { useRootData } from "~/root";
import { useSession } from "~/lib/session";

/**
 * The pathless layout of every "with layout" route of spec §2: sidebar or bottom bar, content, and the right
 * column each child route asks for in `handle.rightColumn`.
 */
export default function ShellLayout() {
  const { isAuth, user } = useSession();
  const viewerName = useRootData()?.viewerName ?? "";
  return (
    <AppShell viewer={{ isAuth, isCreator: user.isCreator, username: user.username, avatarUrl: user.avatarUrl, name: viewerName || user.username }}>
      <Outlet />
    </AppShell>
  );
}
