import { Link } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { VaultAlbum, VaultItem, VaultUse } from "@shared/contracts/vault";
import { ApiError } from "~/lib/api";
import { failureText } from "~/lib/failure-text";
import { useSession } from "~/lib/session";
import { VaultThumb } from "~/components/vault/vault-thumb";
import { vaultAlbumShape, vaultUsesShape } from "~/components/vault/vault-shapes";

/**
 * One file of the vault page: what it is, how often it is used, the albums it is in (checked to add, unchecked to
 * take out), and Delete, which the server refuses while a post or message uses it: then it says where.
 */
export function VaultItemCard({
  item,
  albums,
  onChanged,
  onDeleted,
}: {
  item: VaultItem;
  albums: VaultAlbum[];
  onChanged: (item: VaultItem) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const [uses, setUses] = useState<VaultUse[] | null>(null);
  const label = item.kind === "image" ? t("Photo") : t("Video");

  /** Shown at once (a checkbox follows the click); put back as it was when the server refuses. */
  async function setInAlbum(album: VaultAlbum, inIt: boolean) {
    setFailure(null);
    const path = `/vault/albums/${album.id}/items/${item.id}`;
    const others = item.albumIds.filter((id) => id !== album.id);
    onChanged({ ...item, albumIds: inIt ? [...others, album.id] : others });
    try {
      if (inIt) await api.put(path, undefined, vaultAlbumShape);
      else await api.delete(path);
    } catch (error) {
      onChanged(item);
      setFailure(failureText(t, error));
    }
  }

  async function remove() {
    if (!window.confirm(t("Delete this file from your vault?"))) return;
    setFailure(null);
    setUses(null);
    try {
      await api.delete(`/vault/${item.id}`);
      onDeleted();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setUses(usesIn(error.body));
      setFailure(failureText(t, error));
    }
  }

  return (
    <li className="space-y-2" data-vault-item={item.id}>
      <a href={item.url} target="_blank" rel="noreferrer" className="block" aria-label={label}>
        <VaultThumb item={item} />
      </a>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {item.useCount === 0
          ? t("Not used yet")
          : item.useCount === 1
            ? t("Used once")
            : t("Used {{count}} times", { count: item.useCount })}
      </p>
      {albums.length > 0 ? (
        <details className="text-sm">
          <summary className="cursor-pointer">{t("Albums")}</summary>
          <ul className="mt-1 space-y-1">
            {albums.map((album) => (
              <li key={album.id}>
                <label className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={item.albumIds.includes(album.id)}
                    onChange={(event) => void setInAlbum(album, event.target.checked)}
                  />
                  <span dir="auto">{album.name}</span>
                </label>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <button type="button" className="text-sm text-red-700 underline dark:text-red-400" onClick={() => void remove()}>
        {t("Delete")}
        <span className="sr-only"> {label}</span>
      </button>
      {failure ? (
        <div role="alert" className="text-sm text-red-700 dark:text-red-400">
          <p>{failure}</p>
          {uses && uses.length > 0 ? (
            <ul className="list-inside list-disc" aria-label={t("Where it is used")}>
              {uses.map((use) => (
                <li key={`${use.kind}-${use.id}`}>
                  <UseLink use={use} />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** The uses a refused deletion names (its answer carries them beside the message), or none. */
function usesIn(body: unknown): VaultUse[] {
  try {
    return vaultUsesShape(body).uses;
  } catch {
    return [];
  }
}

function UseLink({ use }: { use: VaultUse }) {
  const { t } = useTranslation();
  switch (use.kind) {
    case "post":
      return (
        <Link to={`/post/${use.id}`} className="link">
          {t("A post")}
        </Link>
      );
    case "message":
      return use.conversationId === null ? (
        <>{t("A message")}</>
      ) : (
        <Link to={`/messages/${use.conversationId}`} className="link">
          {t("A message")}
        </Link>
      );
    case "mass":
      return <>{t("A mass message")}</>;
    case "story":
      return <>{t("A story")}</>;
    case "welcome":
      return <>{t("Your welcome message")}</>;
  }
}
