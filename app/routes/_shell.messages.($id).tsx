import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData, useParams, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { listConversations } from "@worker/domain/messages/conversations";
import { getThread, getThreadMedia } from "@worker/domain/messages/list-messages";
import { listMassMessages } from "@worker/domain/mass-messages/list-mass-messages";
import { sendMessage } from "@worker/domain/messages/send-message";
import { SendMessageSchema } from "@shared/contracts/message-bodies";
import { AppError } from "@worker/domain/shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { parseIdText, parseOrThrow } from "@worker/domain/shared/validation";
import { ChatMediaGallery } from "~/components/messages/chat-media";
import { conversationPageShape, conversationShape, messagePageShape } from "~/components/messages/chat-shapes";
import { ConversationList } from "~/components/messages/conversation-list";
import { CONVERSATIONS_COPY } from "~/components/messages/saved-list";
import { MassMessagePanel } from "~/components/messages/mass-message";
import { Thread } from "~/components/messages/thread";
import { WelcomeMessageSettings } from "~/components/messages/welcome-message-settings";
import { OfflineNotice } from "~/components/offline-notice";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, readForm, requireViewer } from "~/lib/forms.server";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";
import { useSession } from "~/lib/session";
import { nullable, number, object } from "@shared/shape";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Messages"))]);

export const handle: ShellHandle = { rightColumn: "none" };

const notFound = () => new Response("Not found", { status: 404 });

/**
 * /messages (the conversation list), /messages?view=mass (a creator's mass messages), /messages/{id} (one thread)
 * and /messages/{id}?view=media (its chat media). A conversation opens only for its members; anyone else gets
 * "not found", the same as for an id that does not exist.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const view = new URL(request.url).searchParams.get("view");
  const none = { thread: null, media: null, list: null, massMessages: null, savedAt: Date.now() };
  if (params.id === undefined) {
    if (view !== "mass") return { ...none, list: await listConversations(context.domain, user, undefined) };
    // Mass messages are a creator's: a member asking for them is told so.
    if (user.role !== "creator") throw new Response("Forbidden", { status: 403 });
    return { ...none, massMessages: await listMassMessages(context.domain.db, user.id) };
  }
  const id = parseIdText(params.id);
  if (id === null) throw notFound();
  // One batch: the viewer's access first, then the conversation and its first page; not a member: 404.
  try {
    if (view === "media") return { ...none, media: await getThreadMedia(context.domain, user, id) };
    // The client id of a message the browser posts itself (before the hydration): a post sent twice stores one.
    return { ...none, thread: { ...(await getThread(context.domain, user, id)), postedClientId: crypto.randomUUID() } };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw notFound();
    throw error;
  }
}

/**
 * A text message as the browser posts it from the thread's composer before the page has hydrated (with JavaScript
 * it goes through the API): sent with its client id and the per-message price the sender saw, then the thread again.
 */
export async function action({ context, request, params }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  const id = parseIdText(params.id ?? "");
  if (id === null) throw notFound();
  return handleForm(context, async () => {
    const { intent, clientId, text, maxPaidCents } = await readForm(request);
    if (intent !== "send") throw new AppError("validation", INVALID_VALUE);
    const seenPrice = maxPaidCents === undefined || maxPaidCents === "" ? undefined : Number(maxPaidCents);
    await sendMessage(
      context.domain,
      user,
      id,
      parseOrThrow(SendMessageSchema, { clientId, text, maxPaidCents: seenPrice }),
    );
    return redirect(`/messages/${id}`);
  });
}

/**
 * Offline reading (app/lib/offline-copies.ts): the conversation list, and the threads of the KEPT_THREADS most
 * recently opened conversations (their last 100 messages, kept by Thread as they arrive).
 */
const copyKeyOf = (id: string | undefined, view: string | null) =>
  view !== null ? null : id === undefined ? CONVERSATIONS_COPY : `thread:${id}`;
type MessagesData = Awaited<ReturnType<typeof loader>>;
const keptShape = object({
  list: nullable(conversationPageShape),
  thread: nullable(object({ conversation: conversationShape, firstPage: messagePageShape })),
  savedAt: number,
});
export const clientLoader = offlineLoader<MessagesData>(
  ({ params, request }) => copyKeyOf(params.id, new URL(request.url).searchParams.get("view")),
  (value, path) => ({ media: null, massMessages: null, ...keptShape(value, path) }) as MessagesData,
);

export default function MessagesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const data = useLoaderData<typeof clientLoader>();
  const { thread, media, list, massMessages, savedAt } = data;
  const [search] = useSearchParams();
  const key = copyKeyOf(useParams().id, search.get("view"));
  // The thread keeps its own copy, with what arrives while it is open.
  useOfflineCopy(
    thread ? null : key,
    data,
    useMemo(() => ({ list, thread: null, savedAt }), [list, savedAt]),
  );
  if (thread) {
    // New loader data for the same conversation (its saved copy, or the server's answer to a copy) joins what the
    // thread shows, without losing the draft being typed.
    return (
      <Thread
        key={thread.conversation.id}
        conversation={thread.conversation}
        firstPage={thread.firstPage}
        postedClientId={thread.postedClientId}
        copy={{ key: key!, savedAt, offline: data.offline }}
      />
    );
  }
  if (media)
    return (
      <ChatMediaGallery key={media.conversation.id} conversation={media.conversation} firstPage={media.firstPage} />
    );
  if (massMessages) {
    return (
      <>
        <PageHeader title={t("Mass message")}>
          <Link to="/messages" className="link shrink-0 text-sm">
            {t("All messages")}
          </Link>
        </PageHeader>
        <MassMessagePanel initial={massMessages} />
        <WelcomeMessageSettings />
      </>
    );
  }
  return (
    <>
      <PageHeader title={t("Messages")}>
        {user.isCreator ? (
          <Link to="/messages?view=mass" className="btn-secondary shrink-0 text-sm">
            {t("New mass message")}
          </Link>
        ) : null}
      </PageHeader>
      <OfflineNotice offline={data.offline} />
      <ConversationList firstPage={list!} />
    </>
  );
}
