import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { isConversationMember } from "../../worker/domain/messages/conversations";
import { EmptyState, PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";
import { parseIdText } from "@worker/domain/shared/validation";

export const meta = pageMeta((t) => [titleTag(t("Messages"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/**
 * /messages and /messages/{id}. A conversation opens only for its members; anyone else gets "not found", the
 * same as for an id that does not exist.
 */
export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  if (params.id === undefined) return { conversationId: null };
  const id = parseIdText(params.id);
  if (id === null || !(await isConversationMember(context.domain.db, id, user.id))) throw new Response("Not found", { status: 404 });
  return { conversationId: id };
}

export default function MessagesPage() {
  const { t } = useTranslation();
  const { conversationId } = useLoaderData<typeof loader>();
  if (conversationId !== null) {
    return (
      <>
        <PageHeader title={t("Conversation")}>
          <Link to="/messages" className="link">
            {t("All messages")}
          </Link>
        </PageHeader>
        <EmptyState icon="messages" title={t("No messages yet")} text={t("Say hello! Messages you send and receive appear here.")} />
      </>
    );
  }
  return (
    <>
      <PageHeader title={t("Messages")} />
      <EmptyState icon="messages" title={t("No conversations yet")} text={t("Conversations with creators and fans appear here. Open a profile to send a message.")} action={{ to: "/search", label: t("Find creators") }} />
    </>
  );
}
