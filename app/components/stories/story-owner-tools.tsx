import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { StoryView, StoryViewerItem } from "@shared/contracts/stories";
import { Modal } from "~/components/moderation/modal";
import { Avatar } from "~/components/shell/avatar";
import { useSession } from "~/lib/session";
import { highlightTitlesShape, keptShape, viewersShape } from "~/components/stories/story-shapes";
import { viewsAndLikesText } from "~/components/stories/story-counts";
import { NameAndHandle } from "~/components/handle";
import { failureText } from "~/lib/failure-text";

const toolClass = "rounded-full bg-black/60 px-3 py-2 text-sm font-semibold hover:bg-black/80";

/** The creator's own story: who saw it (and liked it), keep it in a highlight or take it out, delete it. */
export function StoryOwnerTools({
  story,
  onDeleted,
  onChanged,
}: {
  story: StoryView;
  onDeleted: (id: number) => void;
  onChanged: (story: StoryView) => void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [open, setOpen] = useState<"viewers" | "highlight" | "delete" | null>(null);
  const [viewers, setViewers] = useState<{
    items: StoryViewerItem[];
    next: string | null;
    views: number;
    likes: number;
  } | null>(null);
  const [highlights, setHighlights] = useState<{ id: number; title: string }[] | null>(null);
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const failed = (failure: unknown) => setError(failureText(t, failure));

  async function showViewers(cursor: string | null) {
    setOpen("viewers");
    setError(null);
    try {
      const page = await api.get(
        `/stories/${story.id}/viewers${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
        viewersShape,
      );
      setViewers((earlier) => ({
        items: [...(cursor && earlier ? earlier.items : []), ...page.viewers],
        next: page.nextCursor,
        views: page.viewCount,
        likes: page.likeCount,
      }));
    } catch (failure) {
      failed(failure);
    }
  }

  async function showHighlights() {
    setOpen("highlight");
    setError(null);
    try {
      setHighlights((await api.get("/highlights", highlightTitlesShape)).highlights);
    } catch (failure) {
      failed(failure);
    }
  }

  async function keep(body: { highlightId: number } | { title: string }) {
    setBusy(true);
    setError(null);
    try {
      const kept = await api.put(`/stories/${story.id}/highlight`, body, keptShape);
      onChanged({ ...story, highlightId: kept.highlightId });
      setOpen(null);
      setTitle("");
    } catch (failure) {
      failed(failure);
    }
    setBusy(false);
  }

  async function unkeep() {
    setError(null);
    try {
      await api.delete(`/stories/${story.id}/highlight`);
      onChanged({ ...story, highlightId: null });
    } catch (failure) {
      failed(failure);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await api.delete(`/stories/${story.id}`);
      setOpen(null);
      onDeleted(story.id);
    } catch (failure) {
      failed(failure);
    }
    setBusy(false);
  }

  function submitTitle(event: FormEvent) {
    event.preventDefault();
    void keep({ title });
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <button type="button" className={toolClass} onClick={() => void showViewers(null)} data-story-viewers>
        {t("Viewers: {{count}}", { count: story.own?.viewCount ?? 0 })}
      </button>
      {story.highlightId === null ? (
        <button type="button" className={toolClass} onClick={() => void showHighlights()}>
          {t("Add to highlight")}
        </button>
      ) : (
        <button type="button" className={toolClass} onClick={() => void unkeep()}>
          {t("Remove from highlight")}
        </button>
      )}
      <button type="button" className={toolClass} onClick={() => setOpen("delete")}>
        {t("Delete")}
      </button>
      {error && open === null ? (
        <p role="alert" className="basis-full text-sm text-red-200">
          {error}
        </p>
      ) : null}

      <Modal open={open === "viewers"} title={t("Viewers")} onClose={() => setOpen(null)}>
        {viewers ? (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {viewsAndLikesText(t, viewers.views, viewers.likes)}
            </p>
            {viewers.items.length === 0 ? <p>{t("Nobody has seen this story yet.")}</p> : null}
            <ul className="max-h-80 space-y-2 overflow-y-auto" data-story-viewer-list>
              {viewers.items.map((item) => (
                <li key={item.user.id} className="flex items-center gap-3">
                  <Avatar url={item.user.avatarUrl} name={item.user.name} size="h-9 w-9" />
                  <span className="min-w-0 flex-1">
                    <NameAndHandle name={item.user.name} username={item.user.username} />
                  </span>
                  {item.liked ? <span className="text-red-600 dark:text-red-400">{t("Liked")}</span> : null}
                </li>
              ))}
            </ul>
            {viewers.next ? (
              <button type="button" className="btn-secondary" onClick={() => void showViewers(viewers.next)}>
                {t("Load more")}
              </button>
            ) : null}
          </>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </Modal>

      <Modal open={open === "highlight"} title={t("Add to highlight")} onClose={() => setOpen(null)}>
        {highlights && highlights.length > 0 ? (
          <ul className="flex flex-wrap gap-2">
            {highlights.map((highlight) => (
              <li key={highlight.id}>
                <button
                  type="button"
                  className="btn-secondary w-auto"
                  disabled={busy}
                  onClick={() => void keep({ highlightId: highlight.id })}
                >
                  {highlight.title}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <form onSubmit={submitTitle} className="space-y-2">
          <label className="block">
            <span className="mb-1 block text-sm font-medium">{t("New highlight")}</span>
            <input
              className="input"
              value={title}
              maxLength={30}
              onChange={(event) => setTitle(event.target.value)}
              required
            />
          </label>
          <button type="submit" className="btn-primary" disabled={busy}>
            {t("Save")}
          </button>
        </form>
        {error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </Modal>

      <Modal open={open === "delete"} title={t("Delete this story?")} onClose={() => setOpen(null)}>
        <p>{t("It disappears for everyone, and from your highlights.")}</p>
        <div className="flex gap-2">
          <button type="button" className="btn-secondary" onClick={() => setOpen(null)}>
            {t("Cancel")}
          </button>
          <button
            type="button"
            className="inline-flex items-center justify-center rounded-full bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            disabled={busy}
            onClick={() => void remove()}
          >
            {t("Delete")}
          </button>
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </Modal>
    </div>
  );
}
