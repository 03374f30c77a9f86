import { useTranslation } from "react-i18next";
import type { ChatMediaView, MessageView } from "@shared/contracts/messages";
import { formatCents } from "@shared/money";
import { UnlockFlow } from "~/components/money/unlock-button";
import { useSession } from "~/lib/session";
import { sentShape } from "~/components/messages/chat-shapes";
import { ChatTime } from "~/components/messages/chat-time";
import { LinkedText } from "~/components/messages/linked-text";
import type { OutgoingMessage } from "~/components/messages/thread-state";
import { mediaCountsText } from "~/lib/counts";
import { bubbleImageSizes, srcSetOf } from "~/lib/scaled-images";
import { VideoPlayer } from "~/components/media/video-player";

const BUBBLE = "max-w-[85%] space-y-2 rounded-2xl px-3 py-2 sm:max-w-[70%]";
// sky-700 under white text: sky-600 falls short of WCAG's 4.5:1 for the small time line.
const MINE = `${BUBBLE} ms-auto bg-sky-700 text-white`;
const THEIRS = `${BUBBLE} me-auto bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-slate-100`;
/** The small line under a bubble's content (time, price): solid colours, so it keeps its contrast on both bubbles. */
const MY_NOTE = "text-xs text-sky-50";
const THEIR_NOTE = "text-xs text-slate-600 dark:text-slate-300";

/**
 * One stored message: its text with safe links, its photos and videos (a locked one: blurred previews and
 * "Unlock for $X"), a tip it carries, what the sender sees of a pay-per-view message (sold or not), and what
 * sending it cost.
 */
export function MessageItem({
  message,
  mine,
  seen,
  onReplaced,
}: {
  message: MessageView;
  mine: boolean;
  seen: boolean;
  onReplaced: (message: MessageView) => void;
}) {
  const { t, i18n } = useTranslation();
  const money = (cents: number) => formatCents(cents, i18n.language);
  return (
    <li data-testid="message" data-seq={message.seq} data-mine={mine ? "true" : "false"} className="flex flex-col">
      <div className={mine ? MINE : THEIRS}>
        {message.tipCents > 0 ? (
          <p data-testid="message-tip" className="font-semibold">
            {mine
              ? t("You tipped {{amount}}", { amount: money(message.tipCents) })
              : t("Tipped you {{amount}}", { amount: money(message.tipCents) })}
          </p>
        ) : null}
        {message.media.length > 0 ? (
          message.locked ? (
            <LockedMedia message={message} onUnlocked={onReplaced} />
          ) : (
            <MediaList media={message.media} />
          )
        ) : null}
        {message.text ? (
          <p dir="auto" className="whitespace-pre-wrap break-words text-start">
            <LinkedText text={message.text} />
          </p>
        ) : null}
        <p className={`${mine ? MY_NOTE : THEIR_NOTE} flex flex-wrap gap-x-2`}>
          <ChatTime iso={message.createdAt} />
          {mine && message.priceCents > 0 ? (
            <span data-ppv-status={message.purchased ? "bought" : "not-bought"}>
              {message.purchased
                ? t("Price {{price}} · Bought", { price: money(message.priceCents) })
                : t("Price {{price}} · Not bought yet", { price: money(message.priceCents) })}
            </span>
          ) : null}
          {!mine && message.priceCents > 0 && !message.locked ? (
            <span>{t("Bought for {{price}}", { price: money(message.priceCents) })}</span>
          ) : null}
          {/* What sending it cost: the sender paid it, the creator receiving it earned it. */}
          {message.paidCents > 0 ? (
            <span data-testid="message-paid">{t("Paid {{price}}", { price: money(message.paidCents) })}</span>
          ) : null}
        </p>
      </div>
      {seen ? (
        <p data-testid="seen-indicator" className="mt-1 ms-auto text-xs text-slate-500 dark:text-slate-400">
          {t("Seen")}
        </p>
      ) : null}
    </li>
  );
}

/**
 * The viewer's message before the server has it: "Sending…" (a failure takes it away and the composer says why),
 * or, kept in the outbox while offline, "Waiting for the network".
 */
export function OutgoingItem({ message, waiting = false }: { message: OutgoingMessage; waiting?: boolean }) {
  const { t } = useTranslation();
  return (
    <li
      data-testid="message"
      data-mine="true"
      data-outgoing={waiting ? "waiting" : "sending"}
      className={`flex flex-col ${waiting ? "opacity-80" : ""}`}
    >
      <div className={MINE}>
        {message.thumbnails.length > 0 ? (
          <div className="grid grid-cols-2 gap-1">
            {message.thumbnails.map((url, index) =>
              url ? (
                <img key={index} src={url} alt="" className="aspect-square w-full rounded-lg object-cover" />
              ) : (
                <div key={index} className="aspect-square w-full rounded-lg bg-black/30" />
              ),
            )}
          </div>
        ) : null}
        {message.text ? (
          <p dir="auto" className="whitespace-pre-wrap break-words text-start">
            {message.text}
          </p>
        ) : null}
        <p className={`${MY_NOTE} italic`}>{waiting ? t("Waiting for the network") : t("Sending…")}</p>
      </div>
    </li>
  );
}

function MediaList({ media }: { media: ChatMediaView[] }) {
  const { t } = useTranslation();
  return (
    <div className={media.length > 1 ? "grid grid-cols-2 gap-1" : ""}>
      {media.map((item) =>
        item.url === null ? null : item.kind === "video" ? (
          <VideoPlayer key={item.id} video={{ ...item, url: item.url }} className="w-full rounded-lg bg-black" />
        ) : (
          <a key={item.id} href={item.url} target="_blank" rel="noopener noreferrer" aria-label={t("Open the photo")}>
            <img
              src={item.url}
              srcSet={srcSetOf(item.url, item.width, item.scaled)}
              sizes={item.scaled.length > 0 ? bubbleImageSizes(media.length > 1) : undefined}
              alt=""
              width={item.width ?? undefined}
              height={item.height ?? undefined}
              loading="lazy"
              decoding="async"
              className="max-h-80 w-full rounded-lg object-cover"
            />
          </a>
        ),
      )}
    </div>
  );
}

/** A pay-per-view message not bought yet: blurred previews, then a confirmation and the purchase from the wallet. */
function LockedMedia({ message, onUnlocked }: { message: MessageView; onUnlocked: (message: MessageView) => void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const images = message.media.filter((item) => item.kind === "image").length;
  return (
    <div className="space-y-2">
      <div className={message.media.length > 1 ? "grid grid-cols-2 gap-1" : ""}>
        {message.media.map((item) => (
          <div
            key={item.id}
            className="relative aspect-square overflow-hidden rounded-lg bg-slate-300 dark:bg-slate-700"
          >
            {item.previewUrl ? (
              <img
                src={item.previewUrl}
                alt=""
                loading="lazy"
                decoding="async"
                className="absolute inset-0 h-full w-full scale-110 object-cover blur-xl"
              />
            ) : null}
          </div>
        ))}
      </div>
      <p className="text-sm">{mediaCountsText(t, images, message.media.length - images)}</p>
      <UnlockFlow
        priceCents={message.priceCents}
        testId="unlock-button"
        question={(price) => t("Pay {{price}} from your wallet to unlock this message?", { price })}
        purchase={async (idempotencyKey, priceCents) => {
          const answer = await api.post(`/messages/${message.id}/unlock`, { priceCents, idempotencyKey }, sentShape);
          onUnlocked(answer.message);
        }}
      />
    </div>
  );
}
