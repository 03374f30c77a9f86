import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PostView } from "@shared/contracts/posts";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { useMenuButton } from "~/components/shell/menu-popover";
import { EditPostDialog } from "~/components/posts/edit-post-dialog";
import { formatCents } from "@shared/money";

/** Asks, then deletes an own post; answers whether it is gone (a post deleted elsewhere already is gone too). */
export function useDeletePost() {
  const { t } = useTranslation();
  const { api } = useSession();
  return async (postId: number): Promise<boolean> => {
    if (!window.confirm(t("Delete this post? This cannot be undone."))) return false;
    try {
      await api.delete(`/posts/${postId}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return true;
      if (error instanceof ApiError) window.alert(error.body.message);
      return false;
    }
    return true;
  };
}

/**
 * The "…" menu of an own post (feed, post page): Edit opens the edit dialog, Delete asks first. The screen that
 * owns the list applies the result: `onUpdated` replaces the post in place, `onDeleted` removes it.
 */
export function PostOwnerMenu({
  post,
  onUpdated,
  onDeleted,
}: {
  post: PostView;
  onUpdated: (post: PostView) => void;
  onDeleted: (postId: number) => void;
}) {
  const { t } = useTranslation();
  const deletePost = useDeletePost();
  const { open, close, buttonProps, menuProps } = useMenuButton();
  const [editing, setEditing] = useState(false);

  async function remove() {
    close();
    if (await deletePost(post.id)) onDeleted(post.id);
  }

  const itemClass =
    "block w-full rounded-lg px-3 py-2 text-start text-sm font-medium hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800";
  return (
    <>
      <OwnPostTerms post={post} />
      <div className="relative shrink-0">
        <button
          {...buttonProps}
          className="rounded-full p-1.5 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
            <path
              fill="currentColor"
              d="M5 10a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm7 0a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm7 0a2 2 0 1 1 0 4 2 2 0 0 1 0-4z"
            />
          </svg>
          <span className="sr-only">{t("Post options")}</span>
        </button>
        {open ? (
          <div
            {...menuProps}
            aria-label={t("Post options")}
            className="absolute end-0 top-full z-40 mt-2 min-w-[10rem] rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
          >
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={itemClass}
              onClick={() => {
                close();
                setEditing(true);
              }}
            >
              {t("Edit")}
            </button>
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`${itemClass} text-red-700 dark:text-red-300`}
              onClick={() => void remove()}
            >
              {t("Delete")}
            </button>
          </div>
        ) : null}
        {editing ? (
          <EditPostDialog
            post={post}
            onClose={() => setEditing(false)}
            onSaved={(updated) => {
              setEditing(false);
              onUpdated(updated);
            }}
          />
        ) : null}
      </div>
    </>
  );
}

/**
 * To its author, beside the menu, a post that not everyone sees for free says who sees it and its price, as the fans
 * meet it. In the menu's chunk: a fan's first /home downloads none of it.
 */
function OwnPostTerms({ post }: { post: PostView }) {
  const { t, i18n } = useTranslation();
  if (post.audience === "everyone" && post.priceCents === 0) return null;
  const chip = "rounded-full bg-slate-100 px-2 py-0.5 dark:bg-slate-800";
  return (
    <ul
      aria-label={t("Who can see it")}
      className="ms-auto flex shrink-0 gap-1 whitespace-nowrap text-xs font-medium text-slate-700 dark:text-slate-300"
      data-own-terms
    >
      <li className={chip}>
        {t(post.audience === "subscribers" ? "Subscribers" : post.audience === "followers" ? "Followers" : "Everyone")}
      </li>
      {post.priceCents > 0 ? (
        <li className={chip}>{t("Price {{price}}", { price: formatCents(post.priceCents, i18n.language) })}</li>
      ) : null}
    </ul>
  );
}
