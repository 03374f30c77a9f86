import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { FanListSummary } from "@shared/contracts/fan-lists";
import type { MassMessageView } from "@shared/contracts/messages";
import { formatCents } from "@shared/money";
import { PaymentErrorNotice } from "~/components/money/payment-error";
import { AttachmentTile } from "~/components/posts/attachment-tile";
import {
  centsFromDollars,
  dollarsFromCents,
  isoFromLocalInput,
  localInputFromIso,
} from "~/components/posts/post-values";
import { InlinePriceField } from "~/components/messages/inline-price-field";
import { MediaFileInput } from "~/components/posts/media-file-input";
import { useAttachments } from "~/components/posts/use-attachments";
import { FromVaultButton } from "~/components/vault/from-vault-button";
import { useSession } from "~/lib/session";
import { useRootData } from "~/root";
import {
  massAudienceCountShape,
  massListChoicesShape,
  massMessageListShape,
  massMessageShape,
} from "~/components/messages/chat-shapes";
import { ChatTime } from "~/components/messages/chat-time";
import { MAX_MESSAGE_LENGTH, MAX_MESSAGE_MEDIA } from "@shared/contracts/message-limits";

/** How often the progress of a mass message still being delivered is asked for. */
const PROGRESS_POLL_MS = 2000;

/** The lists the system keeps, offered even when the list summary cannot be read (no counts then). */
const SYSTEM_CHOICES: readonly string[] = [
  "subscribers",
  "followers",
  "expired",
  "tippers",
  "trial",
  "top-spenders:30",
];

type Choice = Pick<FanListSummary, "ref" | "name"> & { count: number | null };

/** The name of a list on screen: a custom list's own, a system list's in the reader's language. */
function useListName() {
  const { t } = useTranslation();
  return (choice: Pick<FanListSummary, "ref" | "name">): string => {
    if (choice.name) return choice.name;
    const [kind, period] = choice.ref.split(":");
    switch (kind) {
      case "subscribers":
        return t("Subscribers");
      case "followers":
        return t("Followers who never subscribed");
      case "expired":
        return t("Expired subscribers");
      case "tippers":
        return t("Tippers");
      case "trial":
        return t("Fans on a trial");
      case "top-spenders":
        return period === "all"
          ? t("Top spenders, all time")
          : t("Top spenders, last {{days}} days", { days: Number(period) });
      case "buyers":
        return t("Buyers");
      default:
        return choice.ref;
    }
  };
}

interface Draft {
  include: string[];
  exclude: string[];
  text: string;
  price: string;
  later: boolean;
  sendAt: string;
}

const EMPTY_DRAFT: Draft = { include: ["subscribers"], exclude: [], text: "", price: "", later: false, sendAt: "" };

/**
 * /messages?view=mass (creators): one message to the fans of the lists chosen (any list included, none excluded),
 * with photos and videos and an optional price, now or at a chosen time; the count of recipients before sending;
 * then every mass message with its status and results (sent, read, unlocked, revenue), scheduled ones to edit or
 * cancel, sent ones to unsend. The server fans out through a queue, so the answer comes at once with "sending";
 * the list is asked again every two seconds while any is on its way. The client id stays until a send succeeds:
 * trying again after a lost answer cannot send it twice.
 */
export function MassMessagePanel({ initial }: { initial: MassMessageView[] }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const id = useId();
  const listName = useListName();
  const uploads = useAttachments(useRootData()?.csrfToken ?? null, "message");
  const fileInput = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [editing, setEditing] = useState<MassMessageView | null>(null);
  const [choices, setChoices] = useState<Choice[]>(SYSTEM_CHOICES.map((ref) => ({ ref, name: null, count: null })));
  const [count, setCount] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [sent, setSent] = useState(initial);
  const clientId = useRef<string | null>(null);
  const change = (fields: Partial<Draft>) => setDraft((current) => ({ ...current, ...fields }));

  useEffect(() => {
    api
      .get("/lists", massListChoicesShape, { quiet: true })
      .then((answer) => setChoices(answer.lists))
      .catch((failure: unknown) =>
        console.warn("the fan lists could not be read: the system lists are offered", failure),
      );
  }, [api]);

  const audienceKey = JSON.stringify([draft.include, draft.exclude]);
  useEffect(() => {
    if (draft.include.length === 0) {
      setCount(null);
      return;
    }
    const [include, exclude] = JSON.parse(audienceKey) as [string[], string[]];
    let current = true;
    api
      .post("/mass-messages/count", { include, exclude }, massAudienceCountShape, { quiet: true })
      .then((answer) => current && setCount(answer.recipients))
      .catch(() => current && setCount(null));
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- audienceKey stands for the two lists
  }, [audienceKey, api]);

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
  const keptMedia = editing?.mediaIds ?? [];
  const withMedia = uploads.attachments.length > 0 || keptMedia.length > 0;
  const replace = (answer: MassMessageView) =>
    setSent((list) => [answer, ...list.filter((message) => message.id !== answer.id)].sort((a, b) => b.id - a.id));

  function toggle(side: "include" | "exclude", ref: string, on: boolean) {
    const other = side === "include" ? "exclude" : "include";
    setDraft((current) => ({
      ...current,
      [side]: on ? [...current[side], ref] : current[side].filter((value) => value !== ref),
      // One list is either included or excluded.
      [other]: on ? current[other].filter((value) => value !== ref) : current[other],
    }));
  }

  function startEditing(message: MassMessageView) {
    setEditing(message);
    setDone(null);
    setDraft({
      include: message.include,
      exclude: message.exclude,
      text: message.text,
      price: dollarsFromCents(message.priceCents),
      later: true,
      sendAt: localInputFromIso(message.sendAt),
    });
  }

  function stopEditing() {
    setEditing(null);
    setDraft(EMPTY_DRAFT);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setLocalError(null);
    setDone(null);
    const priceCents = withMedia ? centsFromDollars(draft.price) : 0;
    if (priceCents === null) {
      setLocalError(t("Enter a price in dollars, like 9.99."));
      return;
    }
    const sendAt = draft.later ? isoFromLocalInput(draft.sendAt) : null;
    if (draft.later && !sendAt) {
      setLocalError(t("Choose the date and time to send it."));
      return;
    }
    const uploaded = uploads.attachments.some((item) => item.state === "failed")
      ? null
      : await uploads.mediaIds().catch(() => null);
    if (uploaded === null) {
      setLocalError(t("Remove the files that could not be uploaded."));
      return;
    }
    const body = {
      include: draft.include,
      exclude: draft.exclude,
      text: draft.text,
      mediaIds: [...keptMedia, ...uploaded],
      priceCents,
      ...(sendAt ? { sendAt } : {}),
    };
    setSending(true);
    try {
      let answer: MassMessageView;
      if (editing) {
        answer = await api.put(`/mass-messages/${editing.id}`, body, massMessageShape);
      } else {
        clientId.current ??= crypto.randomUUID();
        answer = await api.post("/mass-messages", { clientId: clientId.current, ...body }, massMessageShape);
        clientId.current = null;
      }
      replace(answer);
      setEditing(null);
      setDraft(EMPTY_DRAFT);
      if (uploads.attachments.length > 0) uploads.detach();
      setDone(
        answer.status === "scheduled" ? t("Scheduled.") : t("Sending to {{count}} fans.", { count: answer.recipients }),
      );
    } catch (failure) {
      setError(failure);
    } finally {
      setSending(false);
    }
  }

  async function act(message: MassMessageView, action: "cancel" | "unsend") {
    const question =
      action === "cancel"
        ? t("Cancel this scheduled mass message?")
        : t("Unsend this mass message? It leaves every chat where it was not bought.");
    if (!window.confirm(question)) return;
    setError(null);
    try {
      replace(await api.post(`/mass-messages/${message.id}/${action}`, {}, massMessageShape));
      if (editing?.id === message.id) stopEditing();
      setDone(action === "cancel" ? t("Cancelled.") : t("Unsent."));
    } catch (failure) {
      setError(failure);
    }
  }

  const listChooser = (side: "include" | "exclude", legend: string) => (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {choices.map((choice) => (
          <label key={choice.ref} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={`${id}-${side}`}
              value={choice.ref}
              data-testid={`mass-${side}-${choice.ref}`}
              checked={draft[side].includes(choice.ref)}
              onChange={(event) => toggle(side, choice.ref, event.target.checked)}
            />
            {listName(choice)}
            {choice.count === null ? null : (
              <span className="text-slate-500 dark:text-slate-400">({choice.count})</span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );

  return (
    <div className="space-y-6 p-4">
      <form
        onSubmit={(event) => void submit(event)}
        noValidate
        aria-label={editing ? t("Edit the scheduled mass message") : t("New mass message")}
        className="space-y-4"
      >
        {listChooser("include", t("Send to"))}
        {listChooser("exclude", t("Except"))}
        <p role="status" data-testid="mass-recipient-count" className="text-sm text-slate-700 dark:text-slate-300">
          {draft.include.length === 0
            ? t("Choose at least one list to send it to.")
            : count === null
              ? null
              : t("{{count}} fans will get it.", { count })}
        </p>
        <div className="space-y-1">
          <label htmlFor={`${id}-text`} className="block text-sm font-medium">
            {t("Message")}
          </label>
          <textarea
            id={`${id}-text`}
            data-testid="mass-message-text"
            className="input min-h-24"
            maxLength={MAX_MESSAGE_LENGTH}
            value={draft.text}
            onChange={(event) => change({ text: event.target.value })}
          />
        </div>
        {keptMedia.length > 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("{{count}} photos or videos attached.", { count: keptMedia.length })}
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
        <MediaFileInput
          inputRef={fileInput}
          testId="mass-message-files"
          uploads={uploads}
          max={MAX_MESSAGE_MEDIA - keptMedia.length}
          onTooMany={() =>
            setLocalError(t("A message may have at most {{max}} photos and videos.", { max: MAX_MESSAGE_MEDIA }))
          }
        />
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary w-auto"
            onClick={() => fileInput.current?.click()}
            disabled={sending}
          >
            {t("Add photos or videos")}
          </button>
          <FromVaultButton
            className="btn-secondary w-auto"
            max={MAX_MESSAGE_MEDIA - keptMedia.length - uploads.attachments.length}
            disabled={sending}
            onPick={uploads.addFromVault}
          />
        </div>
        {withMedia ? <InlinePriceField value={draft.price} onChange={(price) => change({ price })} /> : null}
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{t("When")}</legend>
          <div className="flex flex-wrap items-center gap-4">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-when`}
                checked={!draft.later}
                onChange={() => change({ later: false })}
              />
              {t("Now")}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name={`${id}-when`} checked={draft.later} onChange={() => change({ later: true })} />
              {t("At a chosen time")}
            </label>
          </div>
          {draft.later ? (
            <div className="mt-2 space-y-1">
              <label htmlFor={`${id}-send-at`} className="block text-sm font-medium">
                {t("Send on")}
              </label>
              <input
                id={`${id}-send-at`}
                data-testid="mass-send-at"
                className="input"
                type="datetime-local"
                value={draft.sendAt}
                onChange={(event) => change({ sendAt: event.target.value })}
              />
            </div>
          ) : null}
        </fieldset>
        {localError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {localError}
          </p>
        ) : null}
        <PaymentErrorNotice error={error} />
        <p role="status" className="text-sm text-green-800 dark:text-green-300">
          {done}
        </p>
        <div className="flex flex-wrap gap-2">
          <button
            type="submit"
            className="btn-primary"
            data-testid="mass-message-send"
            disabled={sending || uploading || draft.include.length === 0}
          >
            {uploading
              ? t("Uploading…")
              : sending
                ? t("Sending…")
                : editing
                  ? t("Save changes")
                  : draft.later
                    ? t("Schedule")
                    : t("Send now")}
          </button>
          {editing ? (
            <button type="button" className="btn-secondary" onClick={stopEditing}>
              {t("Stop editing")}
            </button>
          ) : null}
        </div>
      </form>
      <section aria-labelledby={`${id}-sent`} className="space-y-2">
        <h2 id={`${id}-sent`} className="text-lg font-bold">
          {t("Mass messages")}
        </h2>
        {sent.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("Your mass messages and what they earned appear here.")}
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="text-start text-slate-600 dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-2 pe-3 text-start font-medium">
                    {t("Message")}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-start font-medium">
                    {t("Status")}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-end font-medium">
                    {t("Sent")}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-end font-medium">
                    {t("Read")}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-end font-medium">
                    {t("Unlocked")}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-end font-medium">
                    {t("Revenue")}
                  </th>
                  <th scope="col" className="py-2 text-start font-medium">
                    <span className="sr-only">{t("Actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {sent.map((message) => (
                  <ResultRow
                    key={message.id}
                    message={message}
                    onEdit={() => startEditing(message)}
                    onCancel={() => void act(message, "cancel")}
                    onUnsend={() => void act(message, "unsend")}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function ResultRow({
  message,
  onEdit,
  onCancel,
  onUnsend,
}: {
  message: MassMessageView;
  onEdit: () => void;
  onCancel: () => void;
  onUnsend: () => void;
}) {
  const { t, i18n } = useTranslation();
  const status = {
    scheduled: t("Scheduled"),
    sending: t("Sending {{delivered}} of {{recipients}}", {
      delivered: message.delivered,
      recipients: message.recipients,
    }),
    sent: t("Sent"),
    cancelled: t("Cancelled"),
    unsent: t("Unsent"),
  }[message.status];
  return (
    <tr data-testid="mass-message" data-status={message.status} className="align-top">
      <td className="max-w-xs py-2 pe-3">
        <p dir="auto" className="line-clamp-2 whitespace-pre-wrap break-words text-start">
          {message.text}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <ChatTime iso={message.sendAt} />
          {message.priceCents > 0
            ? ` · ${t("Price {{price}}", { price: formatCents(message.priceCents, i18n.language) })}`
            : null}
        </p>
      </td>
      <td className="py-2 pe-3" data-testid="mass-message-status">
        {status}
      </td>
      <td className="py-2 pe-3 text-end tabular-nums" data-testid="mass-message-sent">
        {message.delivered}
      </td>
      <td className="py-2 pe-3 text-end tabular-nums" data-testid="mass-message-read">
        {message.read}
      </td>
      <td className="py-2 pe-3 text-end tabular-nums" data-testid="mass-message-unlocked">
        {message.unlocked}
      </td>
      <td className="py-2 pe-3 text-end tabular-nums" data-testid="mass-message-revenue">
        {formatCents(message.revenueCents, i18n.language)}
      </td>
      <td className="py-2">
        <div className="flex flex-wrap gap-2">
          {message.viewer.canEdit ? (
            <>
              <button type="button" className="link" onClick={onEdit}>
                {t("Edit")}
              </button>
              <button type="button" className="link" onClick={onCancel}>
                {t("Cancel")}
              </button>
            </>
          ) : null}
          {message.viewer.canUnsend ? (
            <button type="button" className="link" onClick={onUnsend}>
              {t("Unsend")}
            </button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
