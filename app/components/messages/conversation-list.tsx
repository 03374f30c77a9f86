import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatCents } from "@shared/money";
import type { ConversationPage, ConversationView } from "@shared/contracts/messages";
import { EmptyState } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import { Avatar } from "~/components/shell/avatar";
import { useSession } from "~/lib/session";
import { useUpdates } from "~/lib/updates";
import { failureText } from "~/lib/failure-text";
import { usePagedList } from "~/lib/use-paged-list";
import { conversationPageShape } from "~/components/messages/chat-shapes";
import { ChatTime } from "~/components/messages/chat-time";

/**
 * /messages: the viewer's conversations, newest activity first, each with its last message, when it came and
 * how many are unread; "Load more" for older ones, and Remove (hide it until the next message). The list is
 * fetched again when the unread count of the sidebar changes, so a new message moves its conversation up.
 */
export function ConversationList({ firstPage }: { firstPage: ConversationPage }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const list = usePagedList(
    { items: firstPage.conversations, nextCursor: firstPage.nextCursor },
    async (cursor: string) => {
      const page = await api.get(`/conversations?cursor=${encodeURIComponent(cursor)}`, conversationPageShape);
      return { items: page.conversations, nextCursor: page.nextCursor };
    },
  );
  const [error, setError] = useState<string | null>(null);
  useRevalidateOnUnreadChange();

  async function remove(conversation: ConversationView) {
    setError(null);
    try {
      await api.delete(`/conversations/${conversation.id}`);
      list.setItems((items) => items.filter((item) => item.id !== conversation.id));
    } catch (failure) {
      // Offline too: a removal is not queued, and the row stays.
      setError(failureText(t, failure));
    }
  }

  if (list.items.length === 0) {
    return (
      <EmptyState
        icon="messages"
        title={t("No conversations yet")}
        text={t("Conversations with creators and fans appear here. Open a profile to send a message.")}
        action={{ to: "/search", label: t("Find creators") }}
      />
    );
  }
  return (
    <>
      {error ? (
        <p role="alert" className="m-4 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {list.items.map((conversation) => (
          <ConversationRow
            key={conversation.id}
            conversation={conversation}
            onRemove={() => void remove(conversation)}
          />
        ))}
      </ul>
      <LoadMore list={list} />
    </>
  );
}

/** The sidebar's unread count moved: a message came or was read elsewhere, so the list's order and counts did too. */
function useRevalidateOnUnreadChange() {
  const { updates } = useUpdates();
  const { revalidate } = useRevalidator();
  const shown = useRef(updates.messages);
  useEffect(() => {
    if (shown.current === updates.messages) return;
    shown.current = updates.messages;
    revalidate();
  }, [updates.messages, revalidate]);
}

function ConversationRow({ conversation, onRemove }: { conversation: ConversationView; onRemove: () => void }) {
  const { t } = useTranslation();
  const { other, lastMessage, unreadCount } = conversation;
  return (
    <li
      data-testid="conversation-row"
      data-conversation-id={conversation.id}
      className="flex items-center gap-3 px-4 py-3"
    >
      <Link to={`/messages/${conversation.id}`} className="flex min-w-0 flex-1 items-center gap-3 hover:opacity-90">
        <Avatar url={other.avatarUrl} name={other.name} size="h-12 w-12" />
        <div className="min-w-0 flex-1">
          <div className="flex items-baseline justify-between gap-2">
            <span dir="auto" className={`truncate-text ${unreadCount > 0 ? "font-bold" : "font-semibold"}`}>
              {other.name}
            </span>
            {lastMessage ? (
              <ChatTime iso={lastMessage.createdAt} className="shrink-0 text-xs text-slate-500 dark:text-slate-400" />
            ) : null}
          </div>
          <div className="flex items-center justify-between gap-2">
            <p
              dir="auto"
              className={`truncate-text text-sm ${unreadCount > 0 ? "text-slate-900 dark:text-slate-100" : "text-slate-600 dark:text-slate-400"}`}
            >
              {lastMessage ? <LastMessage last={lastMessage} /> : null}
            </p>
            {unreadCount > 0 ? (
              <span
                data-unread={unreadCount}
                className="shrink-0 rounded-full bg-sky-600 px-2 py-0.5 text-xs font-semibold text-white"
              >
                <span aria-hidden="true">{unreadCount}</span>
                <span className="sr-only">{t("Unread: {{number}}", { number: unreadCount })}</span>
              </span>
            ) : null}
          </div>
        </div>
      </Link>
      <button
        type="button"
        className="btn-secondary shrink-0 text-sm"
        onClick={onRemove}
        aria-label={t("Remove the conversation with {{name}}", { name: other.name })}
      >
        {t("Remove")}
      </button>
    </li>
  );
}

function LastMessage({ last }: { last: NonNullable<ConversationView["lastMessage"]> }) {
  const { t, i18n } = useTranslation();
  const content = last.locked
    ? t("Locked message")
    : last.text
      ? last.text
      : last.mediaKind === "video"
        ? t("Video")
        : last.mediaKind === "image"
          ? t("Photo")
          : "";
  const tip = last.tipCents > 0 ? t("Tip of {{amount}}", { amount: formatCents(last.tipCents, i18n.language) }) : "";
  const what = [tip, content].filter(Boolean).join(" · ");
  return <>{last.fromMe ? t("You: {{text}}", { text: what }) : what}</>;
}
