import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { VaultAlbum, VaultItem } from "@shared/contracts/vault";
import { failureText } from "~/lib/failure-text";
import { useSession } from "~/lib/session";
import { LoadMoreButton } from "~/components/load-more-button";
import { VaultFilters, vaultQuery, type VaultFilterValues } from "~/components/vault/vault-filters";
import { VaultThumb } from "~/components/vault/vault-thumb";
import { vaultAlbumListShape, vaultPageShape } from "~/components/vault/vault-shapes";

/**
 * The vault as a dialog: the creator's files by kind and album, checked to pick (up to `max`), handed to the
 * composer by id. With `conversationId` each file says whether this fan was sent it and whether they bought it.
 */
export function VaultPicker({
  max,
  single,
  conversationId,
  onPick,
  onClose,
}: {
  max: number;
  single: boolean;
  conversationId: number | null;
  onPick: (items: VaultItem[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [filters, setFilters] = useState<VaultFilterValues>({ kind: null, albumId: null });
  const [albums, setAlbums] = useState<VaultAlbum[]>([]);
  const [items, setItems] = useState<VaultItem[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [selected, setSelected] = useState<VaultItem[]>([]);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  useEffect(() => {
    api.get("/vault/albums", vaultAlbumListShape).then(
      (answer) => setAlbums(answer.albums),
      () => undefined,
    );
  }, [api]);

  const load = useCallback(
    async (cursor: string | null) => {
      setLoading(true);
      setFailure(null);
      try {
        const page = await api.get(`/vault${vaultQuery(filters, conversationId, cursor)}`, vaultPageShape);
        setItems((current) => (cursor ? [...current, ...page.items] : page.items));
        setNextCursor(page.nextCursor);
      } catch (error) {
        setFailure(failureText(t, error));
      } finally {
        setLoading(false);
      }
    },
    [api, filters, conversationId, t],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  function toggle(item: VaultItem, checked: boolean) {
    if (single) {
      onPick([item]);
      onClose();
      return;
    }
    setSelected((current) => (checked ? [...current, item] : current.filter((other) => other.id !== item.id)));
  }

  const full = selected.length >= max;

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      data-vault-picker
      className="w-full max-w-2xl rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/50 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="space-y-4 p-5">
        <div className="flex items-center justify-between gap-3">
          <h2 id={titleId} className="text-lg font-semibold">
            {t("Pick from your vault")}
          </h2>
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="rounded-full px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <span aria-hidden="true">✕</span>
            <span className="sr-only">{t("Close")}</span>
          </button>
        </div>
        <VaultFilters values={filters} albums={albums} onChange={setFilters} />
        {!loading && items.length === 0 && !failure ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("No files here yet.")}</p>
        ) : null}
        <ul className="grid max-h-[55vh] grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-4" aria-label={t("Your vault")}>
          {items.map((item) => {
            const checked = selected.some((other) => other.id === item.id);
            return (
              <li key={item.id} data-vault-item={item.id}>
                <label className="block cursor-pointer rounded-xl p-1 has-[:checked]:bg-sky-100 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-600 dark:has-[:checked]:bg-sky-900">
                  <input
                    type={single ? "radio" : "checkbox"}
                    name="vault-pick"
                    className="sr-only"
                    checked={checked}
                    disabled={!checked && full}
                    onChange={(event) => toggle(item, event.target.checked)}
                  />
                  <VaultThumb item={item} />
                  <span className="sr-only">
                    {item.kind === "image" ? t("Photo") : t("Video")}
                    {", "}
                  </span>
                  <ChatFlags item={item} />
                </label>
              </li>
            );
          })}
        </ul>
        {nextCursor !== null ? (
          <LoadMoreButton onClick={() => void load(nextCursor)} disabled={loading} failure={failure} />
        ) : failure ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {failure}
          </p>
        ) : null}
        {single ? null : (
          <div className="flex items-center justify-between gap-3">
            <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
              {t("{{count}} selected", { count: selected.length })}
            </p>
            <button
              type="button"
              className="btn-primary w-auto"
              disabled={selected.length === 0}
              onClick={() => {
                onPick(selected);
                dialog.current?.close();
              }}
            >
              {t("Add")}
            </button>
          </div>
        )}
      </div>
    </dialog>
  );
}

/** In a chat: whether this fan was already sent the file, and whether they bought it. */
function ChatFlags({ item }: { item: VaultItem }) {
  const { t } = useTranslation();
  if (item.sent === null) return null;
  return (
    <span className="mt-1 flex flex-wrap gap-1 text-xs" data-chat-flags>
      {item.sent ? (
        <span className="rounded bg-amber-100 px-1.5 text-amber-900 dark:bg-amber-900 dark:text-amber-100">
          {t("Sent")}
        </span>
      ) : (
        <span className="rounded bg-slate-100 px-1.5 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {t("Not sent")}
        </span>
      )}
      {item.bought ? (
        <span className="rounded bg-emerald-100 px-1.5 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100">
          {t("Bought")}
        </span>
      ) : null}
    </span>
  );
}
