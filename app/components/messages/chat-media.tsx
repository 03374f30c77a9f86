import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatMediaItem, ConversationView } from "@shared/contracts/messages";
import { formatCents } from "@shared/money";
import { LoadMoreButton } from "~/components/load-more-button";
import { Avatar } from "~/components/shell/avatar";
import { useSession } from "~/lib/session";
import { BackLink } from "~/components/messages/back-link";
import { chatMediaPageShape } from "~/components/messages/chat-shapes";
import { GALLERY_TILE_SIZES, srcSetOf } from "~/lib/scaled-images";
import { VideoPlayer } from "~/components/media/video-player";

export interface ChatMediaPage {
  items: ChatMediaItem[];
  nextBefore: number | null;
}

/**
 * /messages/{id}?view=media, spec §2's "chat media": the photos and videos of one conversation, newest first, in a
 * grid. What the viewer has not bought stays a blurred preview with a lock and its price (it is unlocked in the
 * thread, where its message is); "Load more" asks for the page before the oldest message shown.
 */
export function ChatMediaGallery({
  conversation,
  firstPage,
}: {
  conversation: ConversationView;
  firstPage: ChatMediaPage;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [items, setItems] = useState(firstPage.items);
  const [nextBefore, setNextBefore] = useState(firstPage.nextBefore);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { other } = conversation;

  async function loadMore() {
    if (nextBefore === null) return;
    setLoading(true);
    setError(null);
    try {
      const page = await api.get(`/conversations/${conversation.id}/media?before=${nextBefore}`, chatMediaPageShape);
      setItems((current) => [...current, ...page.items]);
      setNextBefore(page.nextBefore);
    } catch {
      setError(t("Older photos and videos could not be loaded."));
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className="min-h-[100dvh]">
      <div className="sticky top-0 z-10 flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-950">
        <BackLink to={`/messages/${conversation.id}`}>{t("Back to the chat")}</BackLink>
        <div className="flex min-w-0 items-center gap-2">
          <Avatar url={other.avatarUrl} name={other.name} size="h-9 w-9" />
          <h1 className="truncate text-lg font-bold">{t("Chat media with {{name}}", { name: other.name })}</h1>
        </div>
      </div>
      {items.length === 0 ? (
        <p className="px-4 py-16 text-center text-slate-600 dark:text-slate-400">
          {t("Photos and videos you send each other appear here.")}
        </p>
      ) : (
        <ul className="grid grid-cols-3 gap-1 p-1 sm:grid-cols-4" aria-label={t("Photos and videos")}>
          {items.map((item) => (
            <MediaTile key={item.media.id} item={item} />
          ))}
        </ul>
      )}
      {error ? (
        <p role="alert" className="m-4 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {nextBefore !== null ? <LoadMoreButton disabled={loading} onClick={() => void loadMore()} /> : null}
    </div>
  );
}

function MediaTile({ item }: { item: ChatMediaItem }) {
  const { t, i18n } = useTranslation();
  const { media } = item;
  const tile = "relative aspect-square overflow-hidden bg-slate-200 dark:bg-slate-800";
  if (item.locked) {
    return (
      <li data-testid="chat-media" data-locked="true" className={tile}>
        {media.previewUrl ? (
          <img
            src={media.previewUrl}
            alt=""
            loading="lazy"
            className="absolute inset-0 h-full w-full scale-110 object-cover blur-xl"
          />
        ) : null}
        <span className="absolute inset-x-1 bottom-1 flex items-center justify-center gap-1 rounded-full bg-slate-900/80 px-2 py-1 text-xs font-semibold text-white">
          <svg viewBox="0 0 24 24" className="h-3.5 w-3.5 shrink-0" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M7 10V7a5 5 0 0 1 10 0v3h1a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V11a1 1 0 0 1 1-1h1zm2 0h6V7a3 3 0 0 0-6 0v3z"
            />
          </svg>
          {t("Locked · {{price}}", { price: formatCents(item.priceCents, i18n.language) })}
        </span>
      </li>
    );
  }
  return (
    <li data-testid="chat-media" data-locked="false" className={tile}>
      {media.url === null ? null : media.kind === "video" ? (
        <VideoPlayer
          video={{ ...media, url: media.url }}
          className="h-full w-full bg-black object-cover"
          aria-label={t("Video")}
        />
      ) : (
        <a href={media.url} target="_blank" rel="noopener noreferrer" aria-label={t("Open the photo")}>
          <img
            src={media.url}
            srcSet={srcSetOf(media.url, media.width, media.scaled)}
            sizes={media.scaled.length > 0 ? GALLERY_TILE_SIZES : undefined}
            alt=""
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover"
          />
        </a>
      )}
    </li>
  );
}
