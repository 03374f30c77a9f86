import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EarlyForm } from "~/components/early-form";
import { conversationShape } from "~/components/messages/chat-shapes";
import { useSession } from "~/lib/session";
import { failureText } from "~/lib/failure-text";

/**
 * "Message" on a profile: opens the conversation with that member (made if the viewer may write to them) and
 * goes to it; a refusal (blocked, not following) is shown as the server words it. Before the hydration the browser
 * posts it to the profile's action, which does the same and redirects to the conversation.
 */
export function MessageButton({ username, className }: { username: string; className: string }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function open() {
    setOpening(true);
    setError(null);
    try {
      const conversation = await api.post("/conversations", { username }, conversationShape);
      navigate(`/messages/${conversation.id}`);
    } catch (failure) {
      setError(failureText(t, failure));
      setOpening(false);
    }
  }

  return (
    <>
      <EarlyForm action={`/${encodeURIComponent(username)}`} className="contents" onSubmit={() => void open()}>
        <button type="submit" name="intent" value="message" className={className} disabled={opening}>
          {t("Message")}
        </button>
      </EarlyForm>
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </>
  );
}
