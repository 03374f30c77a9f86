import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ALBUM_NAME_MAX, type VaultAlbum } from "@shared/contracts/vault";
import { failureText } from "~/lib/failure-text";
import { useSession } from "~/lib/session";
import { vaultAlbumShape } from "~/components/vault/vault-shapes";

/** The creator's albums: make one, rename or delete each (its files stay in the vault). */
export function VaultAlbums({
  albums,
  onChanged,
}: {
  albums: VaultAlbum[];
  /** After any change; with the id of an album that was deleted. */
  onChanged: (deletedId?: number) => void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [name, setName] = useState("");
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function run(action: () => Promise<unknown>, said: string, deletedId?: number) {
    setFailure(null);
    setDone(null);
    try {
      await action();
      setDone(said);
      onChanged(deletedId);
      return true;
    } catch (error) {
      setFailure(failureText(t, error));
      return false;
    }
  }

  async function create(event: FormEvent) {
    event.preventDefault();
    if (await run(() => api.post("/vault/albums", { name }, vaultAlbumShape), t("Album created."))) setName("");
  }

  async function rename(event: FormEvent) {
    event.preventDefault();
    if (!renaming) return;
    const { id, name: newName } = renaming;
    if (await run(() => api.patch(`/vault/albums/${id}`, { name: newName }, vaultAlbumShape), t("Album renamed.")))
      setRenaming(null);
  }

  function remove(album: VaultAlbum) {
    if (!window.confirm(t("Delete the album {{name}}? Its files stay in your vault.", { name: album.name }))) return;
    void run(() => api.delete(`/vault/albums/${album.id}`), t("Album deleted."), album.id);
  }

  return (
    <section aria-labelledby="vault-albums-title" className="space-y-3">
      <h2 id="vault-albums-title" className="text-lg font-semibold">
        {t("Albums")}
      </h2>
      <form onSubmit={(event) => void create(event)} className="flex gap-2">
        <label htmlFor="new-album-name" className="sr-only">
          {t("New album name")}
        </label>
        <input
          id="new-album-name"
          className="input flex-1"
          maxLength={ALBUM_NAME_MAX}
          placeholder={t("New album name")}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="btn-secondary w-auto" disabled={!name.trim()}>
          {t("Create album")}
        </button>
      </form>
      {albums.length > 0 ? (
        <ul className="space-y-2" aria-label={t("Albums")}>
          {albums.map((album) => (
            <li key={album.id} className="flex flex-wrap items-center gap-2" data-album={album.name}>
              {renaming?.id === album.id ? (
                <form onSubmit={(event) => void rename(event)} className="flex flex-1 gap-2">
                  <label htmlFor={`album-${album.id}-name`} className="sr-only">
                    {t("New name of {{name}}", { name: album.name })}
                  </label>
                  <input
                    id={`album-${album.id}-name`}
                    className="input flex-1"
                    maxLength={ALBUM_NAME_MAX}
                    value={renaming.name}
                    onChange={(event) => setRenaming({ id: album.id, name: event.target.value })}
                  />
                  <button type="submit" className="btn-secondary w-auto">
                    {t("Save")}
                  </button>
                  <button type="button" className="btn-secondary w-auto" onClick={() => setRenaming(null)}>
                    {t("Cancel")}
                  </button>
                </form>
              ) : (
                <>
                  <span dir="auto" className="flex-1 truncate">
                    {album.name}{" "}
                    <span className="text-sm text-slate-600 dark:text-slate-400">
                      {album.itemCount === 1 ? t("1 file") : t("{{count}} files", { count: album.itemCount })}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="btn-secondary w-auto text-sm"
                    onClick={() => setRenaming({ id: album.id, name: album.name })}
                  >
                    {t("Rename")}
                    <span className="sr-only"> {album.name}</span>
                  </button>
                  <button type="button" className="btn-secondary w-auto text-sm" onClick={() => remove(album)}>
                    {t("Delete")}
                    <span className="sr-only"> {album.name}</span>
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {failure ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {failure}
        </p>
      ) : null}
      <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
        {done}
      </p>
    </section>
  );
}
