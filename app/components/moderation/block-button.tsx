import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Notice } from "~/components/forms";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { Modal } from "~/components/moderation/modal";
import { withHandle } from "~/components/handle-sentence";

/**
 * Block / Unblock a user, after a confirmation that says what blocking does. `onChange` hears the new state
 * (a profile hides the person's posts, a list drops the row).
 */
export function BlockButton({
  username,
  blocked: initiallyBlocked,
  onChange,
  className = "btn-secondary",
}: {
  username: string;
  blocked: boolean;
  onChange?: (blocked: boolean) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [blocked, setBlocked] = useState(initiallyBlocked);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState("");

  async function apply() {
    setBusy(true);
    setFailure("");
    const path = `/users/${encodeURIComponent(username)}/block`;
    try {
      await (blocked ? api.delete(path) : api.post(path));
      setBlocked(!blocked);
      setConfirming(false);
      onChange?.(!blocked);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(error.body.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className={className} onClick={() => setConfirming(true)}>
        {blocked ? t("Unblock") : t("Block")}
      </button>
      <Modal
        open={confirming}
        title={withHandle(
          blocked ? t("Unblock @{{username}}?", { username }) : t("Block @{{username}}?", { username }),
          username,
        )}
        onClose={() => setConfirming(false)}
      >
        <p className="text-slate-700 dark:text-slate-300">
          {blocked
            ? t(
                "They will be able to see your posts, follow you and subscribe again. Follows and subscriptions that ended do not come back.",
              )
            : t(
                "You will stop following each other, subscriptions between you end now, and neither of you can see the other's posts, follow, subscribe or send messages.",
              )}
        </p>
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        <div className="flex gap-3">
          <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
            {t("Cancel")}
          </button>
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void apply()}>
            {blocked ? t("Unblock") : t("Block")}
          </button>
        </div>
      </Modal>
    </>
  );
}
