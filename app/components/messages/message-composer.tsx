import { useActionData } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ConversationView } from "@shared/contracts/messages";
import { formatCents } from "@shared/money";
import { PaymentErrorNotice } from "~/components/money/payment-error";
import { changedPriceOf } from "~/lib/api";
import { AttachmentTile } from "~/components/posts/attachment-tile";
import { centsFromDollars } from "~/components/posts/post-values";
import { InlinePriceField } from "~/components/messages/inline-price-field";
import { MediaFileInput } from "~/components/posts/media-file-input";
import { useAttachments } from "~/components/posts/use-attachments";
import { useRootData } from "~/root";
import { FromVaultButton } from "~/components/vault/from-vault-button";
import { MAX_MESSAGE_LENGTH, MAX_MESSAGE_MEDIA } from "@shared/contracts/message-limits";

export interface Draft {
  clientId: string;
  text: string;
  mediaIds: number[];
  priceCents: number;
  /** The per-message price shown when it was sent: the most sending it may cost. */
  maxPaidCents: number;
  thumbnails: (string | null)[];
}

/**
 * Writing a message: text (Enter sends, Shift+Enter starts a new line), photos and videos uploading with their
 * progress, and a price for creators when something is attached. The draft keeps its client id until a send
 * succeeds, so trying again after a lost answer cannot store the message twice. `send` answers the failure, or
 * null; on failure the text comes back and the reason is shown. A per-message price shows on Send ("Send · $2.50")
 * and goes with each message as the most it may cost; a price raised since is refused (nothing charged) and the
 * new one shown, so that Send again pays it knowingly. Before the hydration the browser posts a text message itself
 * to the thread's action, with `postedClientId` as its client id and the price shown (as the API would be sent them).
 */
export function MessageComposer({
  conversation,
  send,
  onTyping,
  postedClientId,
}: {
  conversation: ConversationView;
  send: (draft: Draft) => Promise<unknown>;
  onTyping: () => void;
  postedClientId?: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const uploads = useAttachments(useRootData()?.csrfToken ?? null, "message");
  const fileInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState("");
  const csrfToken = useRootData()?.csrfToken;
  const posted = useActionData<{ ok: boolean; message?: string }>();
  // What was typed before the hydration is in the field but not in the state: Send must not find it empty.
  useEffect(() => {
    const typed = textInput.current?.value;
    if (typed) setText(typed);
  }, []);
  const [price, setPrice] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [sendingMedia, setSendingMedia] = useState(false);
  const draftId = useRef<string | null>(null);
  const [priceChangedTo, setPriceChangedTo] = useState<number | null>(null);
  const messagePriceCents = priceChangedTo ?? conversation.messagePriceCents;

  if (!conversation.viewer.canWrite) {
    return (
      <p
        role="status"
        className="border-t border-slate-200 p-4 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400"
      >
        {conversation.writeRefusal ?? t("You cannot write in this conversation.")}
      </p>
    );
  }

  const uploading = uploads.attachments.some((item) => item.state === "uploading");
  const showPrice = conversation.viewer.canSetPrice && uploads.attachments.length > 0;

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const typed = text;
    const withMedia = uploads.attachments.length > 0;
    if (!typed.trim() && !withMedia) return;
    setError(null);
    setLocalError(null);
    if (uploads.attachments.some((item) => item.state === "failed")) {
      setLocalError(t("Remove the files that could not be uploaded."));
      return;
    }
    const priceCents = showPrice ? centsFromDollars(price) : 0;
    if (priceCents === null) {
      setLocalError(t("Enter a price in dollars, like 9.99."));
      return;
    }
    const mediaIds = await uploads.mediaIds().catch(() => null);
    if (mediaIds === null) {
      setLocalError(t("Remove the files that could not be uploaded."));
      return;
    }
    // The next message typed while this one is on its way gets its own id; a failed one gives its id back.
    const clientId = draftId.current ?? crypto.randomUUID();
    draftId.current = null;
    setText("");
    if (withMedia) setSendingMedia(true);
    const failure = await send({
      clientId,
      text: typed,
      mediaIds,
      priceCents,
      maxPaidCents: messagePriceCents,
      thumbnails: uploads.attachments.map((item) => item.thumbnailUrl),
    });
    setSendingMedia(false);
    if (failure) {
      const changed = changedPriceOf(failure);
      if (changed !== null) setPriceChangedTo(changed);
      draftId.current = clientId;
      // Whatever was typed meanwhile stays; the unsent text comes back in front of it.
      setText((current) => (current ? `${typed}\n${current}` : typed));
      setError(failure);
      return;
    }
    if (withMedia) uploads.detach();
    setPrice("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!uploading && !sendingMedia) void submit();
  }

  return (
    <form
      method="post"
      action={`/messages/${conversation.id}`}
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={t("Write a message")}
      className="space-y-2 border-t border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-950"
    >
      {messagePriceCents > 0 ? (
        <p className="text-xs text-slate-600 dark:text-slate-400" data-message-price>
          {t("Each message costs {{price}}", { price: formatCents(messagePriceCents, i18n.language) })}
        </p>
      ) : null}
      {uploads.attachments.length > 0 ? (
        <ul className="grid grid-cols-4 gap-2" aria-label={t("Photos and videos")}>
          {uploads.attachments.map((attachment) => (
            <AttachmentTile
              key={attachment.key}
              attachment={attachment}
              onRemove={() => uploads.remove(attachment.key)}
            />
          ))}
        </ul>
      ) : null}
      {showPrice ? <InlinePriceField value={price} onChange={setPrice} /> : null}
      {posted?.ok === false && !error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {posted.message}
        </p>
      ) : null}
      {localError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {localError}
        </p>
      ) : null}
      <PaymentErrorNotice error={error} />
      {csrfToken ? <input type="hidden" name="_csrf" value={csrfToken} /> : null}
      {postedClientId ? <input type="hidden" name="clientId" value={postedClientId} /> : null}
      <input type="hidden" name="maxPaidCents" value={messagePriceCents} />
      <div className="flex items-end gap-2">
        <MediaFileInput
          inputRef={fileInput}
          testId="message-files"
          uploads={uploads}
          max={MAX_MESSAGE_MEDIA}
          onTooMany={() =>
            setLocalError(t("A message may have at most {{max}} photos and videos.", { max: MAX_MESSAGE_MEDIA }))
          }
        />
        <button
          type="button"
          className="btn-secondary shrink-0 px-3"
          onClick={() => fileInput.current?.click()}
          disabled={sendingMedia}
          aria-label={t("Add photos or videos")}
        >
          +
        </button>
        {conversation.viewer.canSetPrice ? (
          <FromVaultButton
            className="btn-secondary w-auto shrink-0 px-3 text-sm"
            max={MAX_MESSAGE_MEDIA - uploads.attachments.length}
            conversationId={conversation.id}
            disabled={sendingMedia}
            onPick={uploads.addFromVault}
          />
        ) : null}
        <label htmlFor={`${id}-text`} className="sr-only">
          {t("Message")}
        </label>
        <textarea
          ref={textInput}
          id={`${id}-text`}
          name="text"
          data-testid="composer-input"
          className="input max-h-40 min-h-10 flex-1 resize-none"
          rows={1}
          maxLength={MAX_MESSAGE_LENGTH}
          placeholder={t("Write a message…")}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value) onTyping();
          }}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          name="intent"
          value="send"
          data-testid="send-button"
          className="btn-primary w-auto shrink-0"
          disabled={uploading || sendingMedia}
        >
          {uploading
            ? t("Uploading…")
            : messagePriceCents > 0
              ? t("Send · {{price}}", { price: formatCents(messagePriceCents, i18n.language) })
              : t("Send")}
        </button>
      </div>
    </form>
  );
}
