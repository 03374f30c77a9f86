import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listBlockedUsers } from "@worker/domain/moderation/block-user";
import { BlockButton } from "~/components/moderation/block-button";
import { EmptyState, PageHeader } from "~/components/page";
import { Avatar } from "~/components/shell/avatar";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";
import { NameAndHandle } from "~/components/handle";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Blocked users"))]);

export const handle: ShellHandle = { rightColumn: "none" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  return { users: await listBlockedUsers(context.domain.db, user.id) };
}

/** /settings/blocked: everyone the user blocks, newest first, each with Unblock. */
export default function BlockedUsersPage() {
  const { t } = useTranslation();
  const { users } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  return (
    <>
      <PageHeader title={t("Blocked users")}>
        <Link to="/settings" className="link text-sm">
          {t("Settings")}
        </Link>
      </PageHeader>
      {users.length === 0 ? (
        <EmptyState
          icon="profile"
          title={t("You have not blocked anyone")}
          text={t("People you block cannot see your posts, follow you, subscribe or message you.")}
        />
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {users.map((user) => (
            <li key={user.username} className="flex items-center gap-3 p-4">
              <Avatar url={user.avatarUrl} name={user.name || user.username} />
              <Link to={`/${user.username}`} className="min-w-0 flex-1">
                <NameAndHandle name={user.name} username={user.username} />
              </Link>
              <BlockButton username={user.username} blocked onChange={revalidate} className="btn-secondary w-auto" />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
