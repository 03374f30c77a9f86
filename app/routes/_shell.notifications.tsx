import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { listNotifications } from "@worker/domain/notifications/notifications";
import type { NotificationView } from "@shared/contracts/notifications";
import { NOTIFICATION_PAGE_SIZE, notificationPath } from "@shared/contracts/notification-links";
import { usePagedList } from "~/lib/use-paged-list";
import { Avatar } from "~/components/shell/avatar";
import { Icon, type IconName } from "~/components/shell/icons";
import { OfflineNotice } from "~/components/offline-notice";
import { EmptyState, PageHeader } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { useSession } from "~/lib/session";
import { useUpdateActions } from "~/lib/updates";
import { LocalTime } from "~/components/local-time";
import { formatCents } from "@shared/money";
import { pageMeta, titleTag } from "~/i18n/meta";
import { updatesAnswerShape } from "~/lib/api-shapes";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";
import { notificationPageShape, notificationShape } from "~/lib/notification-shape";
import { array, number, object } from "@shared/shape";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Notifications"))]);

export const handle: ShellHandle = { rightColumn: "search" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  return { notifications: await listNotifications(context.domain.db, user.id, null), savedAt: Date.now() };
}

/** The copy kept for offline reading (app/lib/offline-copies.ts). */
export const clientLoader = offlineLoader(
  () => "notifications",
  object({ notifications: array(notificationShape), savedAt: number }),
);

function useNotificationText() {
  const { t, i18n } = useTranslation();
  return (notification: NotificationView): string => {
    const name = notification.actor?.name ?? "";
    const cents = Number(notification.params.amountCents ?? 0);
    const amount = formatCents(cents, i18n.language);
    switch (notification.kind) {
      case "test":
        return t("This is a test notification. Notifications reach you here.");
      case "follow":
        return t("{{name}} started following you.", { name });
      case "subscription":
        return t("{{name}} subscribed to you.", { name });
      case "tip":
        return cents > 0
          ? t("{{name}} sent you a tip of {{amount}}.", { name, amount })
          : t("{{name}} sent you a tip.", { name });
      case "purchase":
        return t("{{name}} bought your post for {{amount}}.", { name, amount });
      case "renewal_failed":
        return notification.params.trial
          ? t("Your free trial of {{name}} has ended: your wallet could not pay the first period.", { name })
          : t("Your subscription to {{name}} has ended: your wallet could not pay the renewal.", { name });
      case "gift":
        return t("{{from}} gave you a subscription to {{name}}.", {
          from: String(notification.params.from ?? ""),
          name,
        });
      case "payout":
        return notification.params.status === "paid"
          ? t("Your withdrawal of {{amount}} has been paid.", { amount })
          : t("Your withdrawal of {{amount}} was rejected and the money is available again. Reason: {{reason}}", {
              amount,
              reason: String(notification.params.reason ?? ""),
            });
      case "top_up":
        return t("{{amount}} was added to your wallet.", { amount });
      case "like":
        return t("{{name}} liked your post.", { name });
      case "comment":
        return t("{{name}} commented on your post.", { name });
      case "message":
        return t("{{name}} sent you a message.", { name });
      case "live":
        // The list says whether the stream has ended since (params.ended): the notification then tells of the past.
        return notification.params.ended
          ? t("{{name}} was live: {{title}}", { name, title: String(notification.params.title ?? "") })
          : t("{{name}} is live now: {{title}}", { name, title: String(notification.params.title ?? "") });
      case "creator_request":
        return notification.params.status === "approved"
          ? t("Your creator application was approved. You are now a creator.")
          : t("Your creator application was not approved. Reason: {{reason}}", {
              reason: String(notification.params.reason ?? ""),
            });
    }
  };
}

/** /notifications: newest first, 20 at a time; opening the screen marks them read (a POST, so the badge drops everywhere). */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof clientLoader>();
  const { notifications: firstPage } = data;
  useOfflineCopy(
    "notifications",
    data,
    useMemo(() => ({ notifications: firstPage, savedAt: data.savedAt }), [firstPage, data.savedAt]),
  );
  const { api } = useSession();
  const { setUpdates } = useUpdateActions();
  const textOf = useNotificationText();
  const hasUnread = firstPage.some((n) => !n.read);
  // A full page may have more after it: "Load more" asks for those older than its last.
  const cursorAfter = (page: NotificationView[]) =>
    page.length >= NOTIFICATION_PAGE_SIZE ? page[page.length - 1]!.id : null;
  const list = usePagedList({ items: firstPage, nextCursor: cursorAfter(firstPage) }, async (before: number) => {
    const page = await api.get(`/notifications?before=${before}`, notificationPageShape);
    return { items: page.notifications, nextCursor: cursorAfter(page.notifications) };
  });
  const notifications = list.items;

  useEffect(() => {
    if (!hasUnread || data.offline) return;
    api
      .post("/notifications/read", {}, updatesAnswerShape)
      .then((body) => setUpdates(body.updates))
      .catch((error: unknown) => console.error("POST /notifications/read failed", error));
  }, [api, hasUnread, setUpdates, data.offline]);

  return (
    <>
      <PageHeader title={t("Notifications")} />
      <OfflineNotice offline={data.offline} />
      {notifications.length === 0 ? (
        <EmptyState
          icon="notifications"
          title={t("No notifications yet")}
          text={t("New followers, subscribers, tips, likes and comments will show up here.")}
        />
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {notifications.map((notification) => {
            const path = notificationPath(notification.kind, notification.params, notification.actor?.username ?? null);
            const text = textOf(notification);
            return (
              <li
                key={notification.id}
                data-notification={notification.id}
                className={`relative flex items-start gap-3 p-4 ${path ? "hover:bg-slate-50 dark:hover:bg-slate-900/60" : ""} ${notification.read ? "" : "bg-brand-50 dark:bg-slate-900"}`}
              >
                {notification.actor ? (
                  // Above the line's own link (z-10): the avatar opens the person's profile.
                  <Link
                    to={`/${notification.actor.username}`}
                    className="relative z-10 shrink-0 rounded-full"
                    aria-label={`@${notification.actor.username}`}
                  >
                    <Avatar url={notification.actor.avatarUrl} name={notification.actor.name} />
                  </Link>
                ) : (
                  <span
                    aria-hidden="true"
                    className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400"
                  >
                    <Icon name={SYSTEM_ICONS[notification.kind] ?? "notifications"} className="h-5 w-5" />
                  </span>
                )}
                <div className="min-w-0 flex-1">
                  {/* Names, titles and reasons are people's own text: a long word wraps inside the row (a phone). */}
                  <p className="break-words">
                    {path ? (
                      // The whole line is the link: its ::after covers the row.
                      <Link to={path} className="after:absolute after:inset-0 after:content-['']">
                        {text}
                      </Link>
                    ) : (
                      text
                    )}
                  </p>
                  <LocalTime iso={notification.createdAt} className="text-sm text-slate-600 dark:text-slate-400" />
                </div>
                {notification.kind === "live" && !notification.params.ended && path ? (
                  <Link to={path} className="btn-secondary relative z-10 shrink-0 self-center text-sm" tabIndex={-1}>
                    {t("Watch")}
                  </Link>
                ) : null}
                {notification.read ? null : <span className="sr-only">{t("Unread")}</span>}
              </li>
            );
          })}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}

/** The icon of a notification that no person sent (the wallet's, the payouts', the platform's). */
const SYSTEM_ICONS: Partial<Record<NotificationView["kind"], IconName>> = {
  top_up: "wallet",
  payout: "wallet",
  renewal_failed: "wallet",
  creator_request: "dashboard",
  live: "live",
};
