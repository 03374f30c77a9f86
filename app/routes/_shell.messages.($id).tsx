import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getConversation, isConversationMember, listConversations } from "@worker/domain/messages/conversations";
import { listMessages } from "@worker/domain/messages/list-messages";
import { parseIdText } from "@worker/domain/shared/validation";
import { ConversationList } from "~/components/messages/conversation-list";
import { Thread } from "~/components/messages/thread";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Messages"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/**
 * /messages (the conversation list) and /messages/{id} (one thread). A conversation opens only for its members;
 * anyone else gets "not found", the same as for an id that does not exist.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  if (params.id === undefined) return { thread: null, list: await listConversations(context.domain, user, undefined) };
  const id = parseIdText(params.id);
  if (id === null || !(await isConversationMember(context.domain.db, id, user.id))) throw new Response("Not found", { status: 404 });
  const [conversation, firstPage] = await Promise.all([getConversation(context.domain, user, id), listMessages(context.domain, user, id, {})]);
  return { thread: { conversation, firstPage }, list: null };
}

export default function MessagesPage() {
  const { t } = useTranslation();
  const { thread, list } = useLoaderData<typeof loader>();
  if (thread) return <Thread key={thread.conversation.id} conversation={thread.conversation} firstPage={thread.firstPage} />;
  return (
    <>
      <PageHeader title={t("Messages")} />
      <ConversationList firstPage={list!} />
    </>
  );
}
