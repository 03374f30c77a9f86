import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { WelcomeMessageView } from "@shared/contracts/welcome-messages";
import { MAX_MESSAGE_LENGTH, MAX_MESSAGE_MEDIA } from "@shared/contracts/message-limits";
import { InlinePriceField } from "~/components/messages/inline-price-field";
import { welcomeMessageShape } from "~/components/messages/welcome-message-shape";
import { AttachmentTile } from "~/components/posts/attachment-tile";
import { MediaFileInput } from "~/components/posts/media-file-input";
import { centsFromDollars } from "~/components/posts/post-values";
import { useAttachments } from "~/components/posts/use-attachments";
import { FromVaultButton } from "~/components/vault/from-vault-button";
import { Icon } from "~/components/shell/icons";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { useRootData } from "~/root";

type Saved = WelcomeMessageView["media"][number];

/** Dollars as the price field shows them: "" for free, "5.00" for 500 cents. */
const dollarsOf = (cents: number) => (cents > 0 ? (cents / 100).toFixed(2) : "");

/**
 * The creator's welcome message (beside the mass message): on or off, its text, photos and videos and an optional
 * price, sent once to each new subscriber. It reads the saved settings when shown and saves them whole; new files
 * upload as in the chat's composer and must have finished before saving. What was saved, or why not, is announced.
 */
export function WelcomeMessageSettings() {
  const { t } = useTranslation();
  const { api } = useSession();
  const id = useId();
  const uploads = useAttachments(useRootData()?.csrfToken ?? null, "message");
  const fileInput = useRef<HTMLInputElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [enabled, setEnabled] = useState(false);
  const [text, setText] = useState("");
  const [price, setPrice] = useState("");
  const [kept, setKept] = useState<Saved[]>([]);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState("");
  const [error, setError] = useState<{ message: string; errors: Record<string, string[]> } | null>(null);

  const show = (saved: WelcomeMessageView) => {
    setEnabled(saved.enabled);
    setText(saved.text);
    setPrice(dollarsOf(saved.priceCents));
    setKept(saved.media);
  };

  useEffect(() => {
    let current = true;
    api
      .get("/me/welcome-message", welcomeMessageShape)
      .then((saved) => {
        if (!current) return;
        show(saved);
        setLoaded(true);
      })
      .catch((failure: unknown) => console.warn("reading the welcome message failed", failure));
    return () => {
      current = false;
    };
  }, [api]);

  const uploading = uploads.attachments.some((item) => item.state === "uploading");
  const withMedia = kept.length + uploads.attachments.length > 0;

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setStatus("");
    const priceCents = withMedia ? centsFromDollars(price) : 0;
    if (priceCents === null) {
      setError({ message: t("Enter a price in dollars, like 9.99."), errors: {} });
      return;
    }
    const added = uploads.attachments.some((item) => item.state === "failed")
      ? null
      : await uploads.mediaIds().catch(() => null);
    if (added === null) {
      setError({ message: t("Remove the files that could not be uploaded."), errors: {} });
      return;
    }
    setSaving(true);
    try {
      const saved = await api.put(
        "/me/welcome-message",
        { enabled, text, mediaIds: [...kept.map((media) => media.id), ...added], priceCents },
        welcomeMessageShape,
      );
      uploads.detach();
      show(saved);
      setStatus(
        saved.enabled ? t("Saved: new subscribers get this message.") : t("Saved: the welcome message is off."),
      );
    } catch (failure) {
      setError(
        failure instanceof ApiError ? failure.body : { message: t("It could not be saved. Try again."), errors: {} },
      );
    } finally {
      setSaving(false);
    }
  }

  const fieldErrors = error ? Object.values(error.errors).flat() : [];
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 border-t border-slate-200 p-4 dark:border-slate-800">
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {t("Welcome message")}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {t("Sent once from your account to each new subscriber, a free trial included; never on a renewal.")}
      </p>
      {!loaded ? (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          {t("Loading…")}
        </p>
      ) : (
        <form onSubmit={(event) => void save(event)} noValidate aria-label={t("Welcome message")} className="space-y-4">
          <label className="flex items-center gap-2 text-sm font-medium">
            <input
              type="checkbox"
              data-testid="welcome-enabled"
              checked={enabled}
              onChange={(event) => setEnabled(event.target.checked)}
            />
            {t("Send a welcome message to new subscribers")}
          </label>
          <div className="space-y-1">
            <label htmlFor={`${id}-text`} className="block text-sm font-medium">
              {t("Welcome message text")}
            </label>
            <textarea
              id={`${id}-text`}
              data-testid="welcome-text"
              className="input min-h-24"
              dir="auto"
              maxLength={MAX_MESSAGE_LENGTH}
              value={text}
              aria-invalid={error?.errors.text ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          {withMedia ? (
            <ul className="grid grid-cols-4 gap-2" aria-label={t("Photos and videos")}>
              {kept.map((media, index) => (
                <li key={media.id} className="relative overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800">
                  {media.kind === "image" ? (
                    <img src={media.url} alt="" className="aspect-square w-full object-cover" />
                  ) : (
                    <div className="flex aspect-square w-full items-center justify-center text-sm">{t("Video")}</div>
                  )}
                  <button
                    type="button"
                    onClick={() => setKept((list) => list.filter((item) => item.id !== media.id))}
                    className="absolute end-1 top-1 rounded-full bg-slate-900/70 p-1 text-white hover:bg-slate-900"
                    aria-label={t("Remove file {{number}}", { number: index + 1 })}
                  >
                    <Icon name="close" className="h-4 w-4" />
                  </button>
                </li>
              ))}
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
            testId="welcome-files"
            uploads={uploads}
            max={MAX_MESSAGE_MEDIA - kept.length}
            onTooMany={() =>
              setError({
                message: t("A message may have at most {{max}} photos and videos.", { max: MAX_MESSAGE_MEDIA }),
                errors: {},
              })
            }
          />
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              className="btn-secondary"
              onClick={() => fileInput.current?.click()}
              disabled={saving}
            >
              {t("Add photos or videos")}
            </button>
            <FromVaultButton
              className="btn-secondary w-auto"
              max={MAX_MESSAGE_MEDIA - kept.length - uploads.attachments.length}
              disabled={saving}
              onPick={uploads.addFromVault}
            />
            {withMedia ? <InlinePriceField value={price} onChange={setPrice} /> : null}
          </div>
          {error ? (
            <div id={`${id}-error`} role="alert" className="space-y-1 text-sm text-red-700 dark:text-red-400">
              <p>{error.message}</p>
              {fieldErrors
                .filter((line) => line !== error.message)
                .map((line) => (
                  <p key={line}>{line}</p>
                ))}
            </div>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" className="btn-primary" disabled={saving || uploading}>
              {uploading ? t("Uploading…") : saving ? t("Saving…") : t("Save welcome message")}
            </button>
            <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
              {status}
            </p>
          </div>
        </form>
      )}
    </section>
  );
}
