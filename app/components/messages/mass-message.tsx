import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { MassMessageAudience, MassMessageView } from "@shared/contracts/messages";
import { formatCents } from "@shared/money";
import { PaymentErrorNotice } from "~/components/money/payment-error";
import { AttachmentTile } from "~/components/posts/attachment-tile";
import { centsFromDollars } from "~/components/posts/post-values";
import { InlinePriceField } from "~/components/messages/inline-price-field";
import { MediaFileInput } from "~/components/posts/media-file-input";
import { useAttachments } from "~/components/posts/use-attachments";
import { useSession } from "~/lib/session";
import { useRootData } from "~/root";
import { massMessageListShape, massMessageShape } from "~/components/messages/chat-shapes";
import { ChatTime } from "~/components/messages/chat-time";
import { MAX_MESSAGE_LENGTH, MAX_MESSAGE_MEDIA } from "@shared/contracts/message-limits";

/** How often the progress of a mass message still being delivered is asked for. */
const PROGRESS_POLL_MS = 2000;

/**
 * /messages?view=mass (creators): one message to all subscribers, all followers or both, with photos and videos
 * and an optional price, then its delivery progress. The server fans it out through a queue, so the answer comes
 * at once with "sending"; the list is asked again every two seconds while any message is still on its way.
 * The client id stays until a send succeeds: trying again after a lost answer cannot send it twice.
 */
export function MassMessagePanel({ initial }: { initial: MassMessageView[] }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const id = useId();
  const uploads = useAttachments(useRootData()?.csrfToken ?? null, "message");
  const fileInput = useRef<HTMLInputElement>(null);
  const [audience, setAudience] = useState<MassMessageAudience>("subscribers");
  const [text, setText] = useState("");
  const [price, setPrice] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [sent, setSent] = useState(initial);
  const clientId = useRef<string | null>(null);

  const anySending = sent.some((message) => message.status === "sending");
  useEffect(() => {
    if (!anySending) return;
    const timer = setInterval(() => {
      api
        .get("/mass-messages", massMessageListShape, { quiet: true })
        .then((answer) => setSent(answer.massMessages))
        .catch((failure: unknown) => console.warn("asking for the mass messages' progress failed", failure));
    }, PROGRESS_POLL_MS);
    return () => clearInterval(timer);
  }, [anySending, api]);

  const uploading = uploads.attachments.some((item) => item.state === "uploading");
  const withMedia = uploads.attachments.length > 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setLocalError(null);
    const priceCents = withMedia ? centsFromDollars(price) : 0;
    if (priceCents === null) {
      setLocalError(t("Enter a price in dollars, like 9.99."));
      return;
    }
    const mediaIds = uploads.attachments.some((item) => item.state === "failed")
      ? null
      : await uploads.mediaIds().catch(() => null);
    if (mediaIds === null) {
      setLocalError(t("Remove the files that could not be uploaded."));
      return;
    }
    clientId.current ??= crypto.randomUUID();
    setSending(true);
    try {
      const answer = await api.post(
        "/mass-messages",
        { clientId: clientId.current, audience, text, mediaIds, priceCents },
        massMessageShape,
      );
      clientId.current = null;
      setSent((list) => [answer, ...list.filter((message) => message.id !== answer.id)]);
      setText("");
      setPrice("");
      if (withMedia) uploads.detach();
    } catch (failure) {
      setError(failure);
    } finally {
      setSending(false);
    }
  }

  const audiences: [MassMessageAudience, string][] = [
    ["subscribers", t("Subscribers")],
    ["followers", t("Followers")],
    ["both", t("Subscribers and followers")],
  ];
  return (
    <div className="space-y-6 p-4">
      <form
        onSubmit={(event) => void submit(event)}
        noValidate
        aria-label={t("New mass message")}
        className="space-y-4"
      >
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{t("Send to")}</legend>
          <div className="flex flex-wrap gap-4">
            {audiences.map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${id}-audience`}
                  value={value}
                  checked={audience === value}
                  onChange={() => setAudience(value)}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="space-y-1">
          <label htmlFor={`${id}-text`} className="block text-sm font-medium">
            {t("Message")}
          </label>
          <textarea
            id={`${id}-text`}
            data-testid="mass-message-text"
            className="input min-h-24"
            maxLength={MAX_MESSAGE_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        {withMedia ? (
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
        <MediaFileInput
          inputRef={fileInput}
          testId="mass-message-files"
          uploads={uploads}
          max={MAX_MESSAGE_MEDIA}
          onTooMany={() =>
            setLocalError(t("A message may have at most {{max}} photos and videos.", { max: MAX_MESSAGE_MEDIA }))
          }
        />
        <button type="button" className="btn-secondary" onClick={() => fileInput.current?.click()} disabled={sending}>
          {t("Add photos or videos")}
        </button>
        {withMedia ? <InlinePriceField value={price} onChange={setPrice} /> : null}
        {localError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {localError}
          </p>
        ) : null}
        <PaymentErrorNotice error={error} />
        <button type="submit" className="btn-primary" disabled={sending || uploading}>
          {uploading ? t("Uploading…") : sending ? t("Sending…") : t("Send to all")}
        </button>
      </form>
      <section aria-labelledby={`${id}-sent`} className="space-y-2">
        <h2 id={`${id}-sent`} className="text-lg font-bold">
          {t("Sent mass messages")}
        </h2>
        {sent.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("Your mass messages and how far they have been delivered appear here.")}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {sent.map((message) => (
              <SentRow
                key={message.id}
                message={message}
                audienceLabel={audiences.find(([value]) => value === message.audience)![1]}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function SentRow({ message, audienceLabel }: { message: MassMessageView; audienceLabel: string }) {
  const { t, i18n } = useTranslation();
  return (
    <li data-testid="mass-message" data-status={message.status} className="space-y-1 py-3">
      <p dir="auto" className="whitespace-pre-wrap break-words text-start">
        {message.text}
      </p>
      <p className="flex flex-wrap gap-x-3 text-sm text-slate-600 dark:text-slate-400">
        <ChatTime iso={message.createdAt} />
        <span>{audienceLabel}</span>
        {message.priceCents > 0 ? (
          <span>{t("Price {{price}}", { price: formatCents(message.priceCents, i18n.language) })}</span>
        ) : null}
        <span role="status" data-testid="mass-message-progress">
          {t("Delivered {{delivered}} of {{recipients}}", {
            delivered: message.delivered,
            recipients: message.recipients,
          })}
        </span>
      </p>
    </li>
  );
}
