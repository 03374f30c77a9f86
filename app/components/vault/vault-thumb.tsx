import { useTranslation } from "react-i18next";
import type { VaultItem } from "@shared/contracts/vault";

/** A vault file as a square tile: its small copy (a video's poster frame), or the video itself when it has none. */
export function VaultThumb({ item }: { item: VaultItem }) {
  const { t } = useTranslation();
  const seconds = item.durationMs === null ? null : Math.round(item.durationMs / 1000);
  return (
    <span className="relative block aspect-square w-full overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800">
      {item.kind === "video" && item.thumbnailUrl === item.url ? (
        <video src={item.url} preload="metadata" muted playsInline className="h-full w-full object-cover" />
      ) : (
        <img src={item.thumbnailUrl} alt="" loading="lazy" className="h-full w-full object-cover" />
      )}
      {item.kind === "video" ? (
        <span className="absolute bottom-1 start-1 rounded bg-slate-900/75 px-1.5 text-xs text-white">
          {seconds === null
            ? t("Video")
            : `${t("Video")} ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`}
        </span>
      ) : null}
    </span>
  );
}
