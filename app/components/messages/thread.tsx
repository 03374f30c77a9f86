import { Link } from "@remix-run/react";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { TYPING_SHOWN_MS } from "@shared/chat-events";
import type { ChatServerFrame, ConversationView, MessagePage, MessageView } from "@shared/contracts/messages";
import { TipButton } from "~/components/money/tip-button";
import { Avatar } from "~/components/shell/avatar";
import { OfflineNotice } from "~/components/offline-notice";
import { useOfflineCopy, type OfflineMark } from "~/lib/offline-copies";
import { OUTBOX_SENT, sendOrKeep, useOutboxEntries, type OutboxEntry } from "~/lib/outbox";
import { useSession } from "~/lib/session";
import { useUpdateActions } from "~/lib/updates";
import { BackLink } from "~/components/messages/back-link";
import { AddToList } from "~/components/fan-lists/add-to-list";
import { conversationShape, messagePageShape, sentShape } from "~/components/messages/chat-shapes";
import { MessageComposer, type Draft } from "~/components/messages/message-composer";
import { MessageItem, OutgoingItem } from "~/components/messages/message-item";
import { markReadInSavedList } from "~/components/messages/saved-list";
import {
  lastSeqOf,
  mergeMessages,
  seenMessageId,
  stillOutgoing,
  type OutgoingMessage,
} from "~/components/messages/thread-state";
import { useChatRoom } from "~/components/messages/use-chat-room";

/** A thread's offline copy keeps its newest messages, this many. */
const KEPT_MESSAGES = 100;

/** Within this many pixels of the bottom, a new message scrolls the thread down; further up, the reader is reading. */
const NEAR_BOTTOM_PX = 120;

/**
 * /messages/{id}: the conversation filling the screen's height, newest at the bottom, older pages as the reader
 * scrolls up; live through the conversation's socket (new messages, "typing…", "Seen", unlocks); the composer
 * at the bottom. Opening it and every message from the other member while the tab is visible marks it read.
 */
export function Thread({
  conversation: initial,
  firstPage,
  postedClientId,
  copy,
}: {
  conversation: ConversationView;
  firstPage: MessagePage;
  /** The client id of the message the browser may post before the hydration (absent in an offline copy). */
  postedClientId?: string;
  /** Where this thread's offline copy is kept, and whether what it shows is that copy (app/lib/offline-copies.ts). */
  copy: { key: string; savedAt: number; offline: OfflineMark | null | undefined };
}) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const { refresh: refreshUpdates } = useUpdateActions();
  const conversationId = initial.id;
  const other = initial.other;
  const [conversation, setConversation] = useState(initial);
  const [messages, setMessages] = useState(firstPage.messages);
  const [nextBefore, setNextBefore] = useState(firstPage.nextBefore);
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>([]);
  const [otherReadSeq, setOtherReadSeq] = useState(initial.otherLastReadSeq);
  const [typing, setTyping] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  /** Set before an older page is added: the distance from the bottom to keep, so the reader's place stays put. */
  const keepFromBottom = useRef<number | null>(null);
  const stickToBottom = useRef(true);
  const messagesNow = useRef(messages);
  messagesNow.current = messages;
  const readUpTo = useRef(0);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>();

  // New loader data (a saved copy shown offline, or the server's answer once back) joins the messages held.
  const firstShown = useRef(firstPage);
  useEffect(() => {
    if (firstShown.current === firstPage) return;
    firstShown.current = firstPage;
    setMessages((current) => mergeMessages(current, firstPage.messages));
    setConversation(initial);
    setOtherReadSeq((seq) => Math.max(seq, initial.otherLastReadSeq));
  }, [firstPage, initial]);

  // The copy kept for offline reading: the conversation and its last KEPT_MESSAGES messages, as they arrive.
  const kept = useMemo(() => {
    const last = messages.slice(-KEPT_MESSAGES);
    const keptBefore = last.length < messages.length ? (last[0]?.seq ?? null) : nextBefore;
    return {
      list: null,
      thread: { conversation, firstPage: { messages: last, nextBefore: keptBefore } },
      savedAt: copy.savedAt,
    };
  }, [messages, nextBefore, conversation, copy.savedAt]);
  useOfflineCopy(copy.key, copy, kept);

  const arrive = useCallback(
    (incoming: MessageView[]) => {
      stickToBottom.current = nearBottom.current || incoming.some((message) => message.senderId === user.userId);
      setMessages((current) => mergeMessages(current, incoming));
    },
    [user.userId],
  );

  /** Marks the conversation read when the reader can see it and something from the other member is unread. */
  const markRead = useCallback(() => {
    if (document.visibilityState !== "visible") return;
    const newest = messagesNow.current.findLast((message) => message.senderId !== user.userId)?.seq ?? 0;
    if (newest <= readUpTo.current && readUpTo.current > 0) return;
    readUpTo.current = Math.max(newest, 1);
    api
      .post(`/conversations/${conversationId}/read`)
      .then(() => {
        refreshUpdates();
        void markReadInSavedList(conversationId);
      })
      .catch((error: unknown) => console.warn("marking the conversation read failed", error));
  }, [api, conversationId, refreshUpdates, user.userId]);

  const catchUp = useCallback(async () => {
    const [page, fresh] = await Promise.all([
      api.get(`/conversations/${conversationId}/messages?after=${lastSeqOf(messagesNow.current)}`, messagePageShape, {
        quiet: true,
      }),
      api.get(`/conversations/${conversationId}`, conversationShape, { quiet: true }),
    ]);
    arrive(page.messages);
    setConversation(fresh);
    setOtherReadSeq((seq) => Math.max(seq, fresh.otherLastReadSeq));
  }, [api, arrive, conversationId]);

  const onFrame = useCallback(
    (frame: ChatServerFrame) => {
      if (frame.type === "message" || frame.type === "unlocked") {
        arrive([frame.message]);
        if (frame.type === "message" && frame.message.senderId !== user.userId) setTyping(false);
      } else if (frame.type === "typing" && frame.userId !== user.userId) {
        setTyping(true);
        clearTimeout(typingTimer.current);
        typingTimer.current = setTimeout(() => setTyping(false), TYPING_SHOWN_MS);
      } else if (frame.type === "read" && frame.userId !== user.userId) {
        setOtherReadSeq((seq) => Math.max(seq, frame.seq));
      }
    },
    [arrive, user.userId],
  );

  const room = useChatRoom(conversationId, {
    onFrame,
    onOpen: () => void catchUp().catch((error: unknown) => console.warn("catching up failed", error)),
  });

  // Read on opening, on every new message of the other member, and when the tab comes back into view.
  const newestFromOther = messages.findLast((message) => message.senderId !== user.userId)?.seq ?? 0;
  useEffect(markRead, [markRead, newestFromOther]);
  useEffect(() => {
    document.addEventListener("visibilitychange", markRead);
    return () => document.removeEventListener("visibilitychange", markRead);
  }, [markRead]);
  useEffect(() => () => clearTimeout(typingTimer.current), []);

  const loadOlder = useCallback(async () => {
    if (nextBefore === null || loadingOlder) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await api.get(`/conversations/${conversationId}/messages?before=${nextBefore}`, messagePageShape);
      const box = scroller.current;
      keepFromBottom.current = box ? box.scrollHeight - box.scrollTop : null;
      stickToBottom.current = false;
      setMessages((current) => mergeMessages(current, page.messages));
      setNextBefore(page.nextBefore);
    } catch {
      setOlderError(t("Older messages could not be loaded."));
    } finally {
      setLoadingOlder(false);
    }
  }, [api, conversationId, loadingOlder, nextBefore, t]);

  // Scrolling to the top loads the older page (the button below is the fallback without IntersectionObserver).
  useEffect(() => {
    const target = sentinel.current;
    if (!target || nextBefore === null || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadOlder();
      },
      { root: scroller.current, rootMargin: "200px 0px 0px 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [loadOlder, nextBefore]);

  const shown = stillOutgoing(outgoing, messages, user.userId);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    if (keepFromBottom.current !== null) {
      box.scrollTop = box.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (stickToBottom.current) {
      box.scrollTop = box.scrollHeight;
    }
  }, [messages, shown.length, typing]);

  // Text sent offline waits in the outbox (shown as waiting) and arrives once the server has it. A message with
  // files or a price, or one that costs money to send, needs the network: money never waits for later.
  const waiting = useOutboxEntries().filter(
    (entry) =>
      entry.status === "pending" && entry.action.kind === "message" && entry.action.conversationId === conversationId,
  );
  useEffect(() => {
    const sent = (event: Event) => {
      const { entry, answer } = (event as CustomEvent<{ entry: OutboxEntry; answer: unknown }>).detail;
      if (entry.action.kind === "message" && entry.action.conversationId === conversationId)
        arrive([sentShape(answer).message]);
    };
    window.addEventListener(OUTBOX_SENT, sent);
    return () => window.removeEventListener(OUTBOX_SENT, sent);
  }, [conversationId, arrive]);

  async function send(draft: Draft): Promise<unknown> {
    stickToBottom.current = true;
    setOutgoing((list) => [...list, { clientId: draft.clientId, text: draft.text, thumbnails: draft.thumbnails }]);
    const body = {
      clientId: draft.clientId,
      text: draft.text,
      mediaIds: draft.mediaIds,
      priceCents: draft.priceCents,
      maxPaidCents: draft.maxPaidCents,
    };
    // What may wait costs nothing: the outbox sends it later with maxPaidCents 0 (app/lib/outbox-sender.ts).
    const mayWait =
      draft.mediaIds.length === 0 &&
      draft.priceCents === 0 &&
      draft.maxPaidCents === 0 &&
      conversation.messagePriceCents === 0;
    try {
      // Only what may wait is given up after a while (sendOrKeep): a paid message waits for its answer.
      const post = (signal?: AbortSignal) =>
        api.post(`/conversations/${conversationId}/messages`, body, sentShape, { signal });
      const sent = mayWait
        ? await sendOrKeep(api, { kind: "message", conversationId, text: draft.text }, post, draft.clientId)
        : { answer: await post() };
      if (sent) {
        arrive([sent.answer.message]);
        // A paid message moved money: the sidebar's balance flag may have changed.
        if (sent.answer.message.paidCents > 0) refreshUpdates();
      }
      return null;
    } catch (failure) {
      return failure;
    } finally {
      setOutgoing((list) => list.filter((item) => item.clientId !== draft.clientId));
    }
  }

  const seenId = seenMessageId(messages, user.userId, otherReadSeq);
  return (
    <div className="flex h-[100dvh] flex-col">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-950">
        <BackLink to="/messages">{t("All messages")}</BackLink>
        <Link to={`/${other.username}`} className="flex min-w-0 items-center gap-2 hover:opacity-90">
          <Avatar url={other.avatarUrl} name={other.name} size="h-9 w-9" />
          <h1 dir="auto" className="truncate-text text-lg font-bold">
            {other.name}
          </h1>
        </Link>
        <div className="ms-auto flex shrink-0 gap-2">
          <Link to={`/messages/${conversationId}?view=media`} className="btn-secondary text-sm">
            {t("Chat media")}
          </Link>
          <AddToList username={other.username} className="text-sm" />
          {/* A tip to the creator of a conversation the viewer may write in: a message in the thread, its note the text. */}
          {other.isCreator && conversation.viewer.canWrite ? (
            <TipButton
              target={{ conversationId }}
              creatorName={other.name}
              className="btn-secondary text-sm"
              onTipped={(answer) => "message" in answer && arrive([answer.message])}
            >
              {t("Send a tip")}
            </TipButton>
          ) : null}
        </div>
      </div>
      <OfflineNotice offline={copy.offline} />
      <div
        ref={scroller}
        className="min-h-0 flex-1 overflow-y-auto px-3 py-4"
        onScroll={(event) => {
          const box = event.currentTarget;
          nearBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM_PX;
        }}
      >
        {nextBefore !== null ? (
          <div ref={sentinel} className="pb-3 text-center">
            <button
              type="button"
              className="btn-secondary text-sm"
              disabled={loadingOlder}
              onClick={() => void loadOlder()}
            >
              {loadingOlder ? t("Loading…") : t("Load older messages")}
            </button>
            {olderError ? (
              <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
                {olderError}
              </p>
            ) : null}
          </div>
        ) : null}
        {messages.length === 0 && shown.length === 0 ? (
          <p className="py-8 text-center text-slate-600 dark:text-slate-400">
            {t("Say hello! Messages you send and receive appear here.")}
          </p>
        ) : null}
        <div role="log" aria-label={t("Messages with {{name}}", { name: other.name })}>
          <ol className="space-y-3">
            {messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                mine={message.senderId === user.userId}
                seen={message.id === seenId}
                onReplaced={(replaced) => arrive([replaced])}
              />
            ))}
            {waiting.map((entry) => (
              <OutgoingItem
                key={entry.id}
                message={{
                  clientId: entry.id,
                  text: entry.action.kind === "message" ? entry.action.text : "",
                  thumbnails: [],
                }}
                waiting
              />
            ))}
            {shown.map((message) => (
              <OutgoingItem key={message.clientId} message={message} />
            ))}
          </ol>
        </div>
        <p aria-live="polite" className="min-h-5 pt-2 text-sm text-slate-500 dark:text-slate-400">
          {typing ? <span data-testid="typing-indicator">{t("{{name}} is typing…", { name: other.name })}</span> : null}
        </p>
      </div>
      <MessageComposer conversation={conversation} send={send} onTyping={room.typing} postedClientId={postedClientId} />
    </div>
  );
}
