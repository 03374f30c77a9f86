import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { VaultAlbum, VaultItem } from "@shared/contracts/vault";

export interface VaultFilterValues {
  kind: VaultItem["kind"] | null;
  albumId: number | null;
}

/** GET /api/vault's query for these filters (and a conversation, a page's cursor). */
export function vaultQuery(filters: VaultFilterValues, conversationId: number | null, cursor: string | null): string {
  const query = new URLSearchParams();
  if (filters.kind) query.set("kind", filters.kind);
  if (filters.albumId !== null) query.set("album", String(filters.albumId));
  if (conversationId !== null) query.set("conversation", String(conversationId));
  if (cursor) query.set("cursor", cursor);
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** Photos or videos, and one album: the vault page's and the picker's filters. */
export function VaultFilters({
  values,
  albums,
  onChange,
}: {
  values: VaultFilterValues;
  albums: VaultAlbum[];
  onChange: (values: VaultFilterValues) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex flex-wrap gap-3">
      <label htmlFor={`${id}-kind`} className="flex items-center gap-2 text-sm">
        {t("Show")}
        <select
          id={`${id}-kind`}
          className="input w-auto"
          value={values.kind ?? ""}
          onChange={(event) =>
            onChange({ ...values, kind: event.target.value === "" ? null : (event.target.value as VaultItem["kind"]) })
          }
        >
          <option value="">{t("Photos and videos")}</option>
          <option value="image">{t("Photos")}</option>
          <option value="video">{t("Videos")}</option>
        </select>
      </label>
      <label htmlFor={`${id}-album`} className="flex items-center gap-2 text-sm">
        {t("Album")}
        <select
          id={`${id}-album`}
          className="input w-auto"
          value={values.albumId ?? ""}
          onChange={(event) =>
            onChange({ ...values, albumId: event.target.value === "" ? null : Number(event.target.value) })
          }
        >
          <option value="">{t("All files")}</option>
          {albums.map((album) => (
            <option key={album.id} value={album.id}>
              {album.name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
